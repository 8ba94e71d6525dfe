#include "partition/technique.hpp"

#include "ladder/noise.hpp"
#include "partition/pitfall.hpp"
#include "record/leak_shapes.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/step_record.hpp"

namespace otm::partition {

namespace {

std::string str_of(const json::Value &v) {
  if (const auto *s = v.as_string()) return *s;
  return v.truthy() ? v.python_str() : std::string();
}

// Strips ASCII characters in `chars` and U+2014 from both ends.
std::string strip_dashes(std::string_view s, std::string_view chars) {
  static const std::string_view em = "\xE2\x80\x94";
  bool changed = true;
  while (changed && !s.empty()) {
    changed = false;
    if (chars.find(s.front()) != std::string_view::npos)
      s.remove_prefix(1), changed = true;
    else if (s.starts_with(em))
      s.remove_prefix(em.size()), changed = true;
    if (s.empty()) break;
    if (chars.find(s.back()) != std::string_view::npos)
      s.remove_suffix(1), changed = true;
    else if (s.ends_with(em))
      s.remove_suffix(em.size()), changed = true;
  }
  return std::string(s);
}

std::string slug_of_stripped(std::string_view text) {
  std::string stripped = strip_boilerplate(text);
  return slugify(stripped.empty() ? text : std::string_view(stripped));
}

} // namespace

std::string slugify(std::string_view text, std::size_t limit) {
  // A commit-like hex run needs a letter and a digit in either case: the
  // reference's lower-case-only rule kept "DEADBEEF1" and ate "1234567".
  static const text::Regex hex(R"(\b(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{7,40}\b)");
  static const text::Regex other("[^a-z0-9]+");
  std::string t = record::replace_version_ids(text, [](std::string_view) { return std::string(" "); });
  t = hex.replace(t, "");
  t = other.replace(text::to_lower(t), "-");
  t = record::replace_version_ids(t, [](std::string_view id) { return std::string(id.substr(1)); });
  t = std::string(text::strip_chars(t, "-"));
  if (t.size() > limit) t = std::string(text::rstrip_chars(t.substr(0, limit), "-"));
  return t.empty() ? "unnamed" : t;
}

std::string strip_boilerplate(std::string_view text) {
  static const text::Regex boilerplate(
      R"((?i)reverted|dead[- ]end recorded|no improvement over[^,;]*|flat[- ]within[- ]noise|\d+(?:st|nd|rd|th)\s+consecutive[^,;]*|committed|geomean improvement|baseline)");
  static const text::Regex leading(R"(^\W*)");
  static const text::Regex brackets(R"(\(\s*\)|\[\s*\])");
  static const text::Regex spaces(R"(\s+)");
  static const text::Regex letter("[A-Za-z]");
  std::string t = boilerplate.replace(text, " ");
  t = leading.replace(t, "");
  t = brackets.replace(t, " ");
  t = spaces.replace(t, " ");
  t = strip_dashes(t, " -:;,.");
  std::string out;
  bool leading_tokens = true;
  std::size_t pos = 0;
  while (pos < t.size()) {
    auto sp = t.find(' ', pos);
    std::string tok = t.substr(pos, sp == std::string::npos ? std::string::npos : sp - pos);
    pos = sp == std::string::npos ? t.size() : sp + 1;
    if (tok.empty()) continue;
    if (leading_tokens && !letter.contains(tok)) continue;
    leading_tokens = false;
    if (!out.empty()) out += ' ';
    out += tok;
  }
  return out;
}

std::string text_of(const workspace::VersionRow &row) { return ladder::text_of(row); }

std::string strategy_technique(const workspace::VersionRow &row) {
  std::string fallback = row.action_description.value_or("");
  if (fallback.empty()) fallback = row.subject;
  std::string desc = strip_boilerplate(fallback);
  if (text::code_points(desc) >= 12) return slugify(desc);
  std::string category(text::strip(row.action_category.value_or("")));
  std::string lower = text::to_lower(category);
  if (!category.empty() && lower != "baseline" && lower != "exhaustive_search") return slugify(category);
  return slugify(fallback);
}

std::string deadend_item_technique(std::string_view item) { return slug_of_stripped(item); }

std::string pitfall_technique(std::string_view pitfall_text) { return slug_of_stripped(pitfall_text); }

std::string deadend_prose_technique(const workspace::VersionRow &row) {
  static const text::Regex subject_split(R"(dead[- ]end recorded\s*:\s*|\s+[\x{2014}\x{2013}-]{1,2}\s+)");
  static const text::Regex attempted(R"((?s)Attempted\s+(.+))");
  std::vector<std::string> candidates;
  const std::string &subject = row.subject;
  // re.split(maxsplit=1)[-1]: the part after the first separator.
  auto [head, tail] = subject_split.split_once(subject);
  // otm: a tail that opens with the verdict ("— reverted, 16.3us vs best
  // 15.5us (+5.5%)") is the verdict and its figures, not the lever, even
  // when a word of them ("best") survives the boilerplate strip.
  static const text::Regex verdict_first(R"((?i)^\W*(?:reverted|flat[- ]within[- ]noise|no improvement)\b)");
  if (tail && !verdict_first.contains(*tail)) candidates.emplace_back(*tail);
  candidates.push_back(row.action_description.value_or(""));
  std::string gate = row.gate_failure.value_or("");
  if (auto m = attempted.search(gate)) gate = std::string((*m)[1]);
  candidates.push_back(gate);
  if (const auto *list = row.pitfalls.as_array()) {
    for (const auto &raw : *list) {
      auto entry = trace::normalise_pitfall(raw);
      std::string t;
      if (entry.is_object()) {
        t = str_of(entry.get("pitfall"));
        if (t.empty()) t = str_of(entry.get("explanation"));
      } else if (!entry.is_null()) {
        t = str_of(entry);
      }
      if (!text::strip(t).empty()) {
        candidates.push_back(t);
        break;
      }
    }
  }
  // otm: "block size 4096 -> 8192, ... — reverted, 16.93→17.80us (+5.1%)"
  // puts the lever before the separator; its tail is only the verdict.
  if (tail) candidates.emplace_back(head);
  // otm: a candidate left with no word of three letters ("16.93→17.80us
  // (+5.1%)") names no lever, however long it is.
  static const text::Regex word("[A-Za-z]{3,}");
  for (const auto &c : candidates) {
    std::string stripped = strip_boilerplate(c);
    if (text::code_points(stripped) >= 12 && word.contains(stripped)) return slugify(stripped);
  }
  std::string category = row.action_category.value_or("");
  if (!category.empty()) return slugify(category);
  return "unnamed-dead-end";
}

} // namespace otm::partition
