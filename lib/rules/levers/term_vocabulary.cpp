#include "levers/term_vocabulary.hpp"

#include "error/error.hpp"

namespace otm::levers {

namespace {

// `patterns` (a non-empty list of non-empty strings) as one alternation
// between `open` and `close`.
std::shared_ptr<const text::Regex> alternation_regex(const json::Value &patterns, bool caseless,
                                                     const std::string &where, const char *open, const char *close) {
  const auto *list = patterns.as_array();
  if (!list || list->empty()) throw Error(ErrorKind::Usage, where + " must be a non-empty list of patterns");
  std::string alternation;
  for (const auto &p : *list) {
    const auto *s = p.as_string();
    if (!s || s->empty()) throw Error(ErrorKind::Usage, where + " holds a pattern that is not a non-empty string");
    if (!alternation.empty()) alternation += '|';
    alternation += *s;
  }
  try {
    return std::make_shared<const text::Regex>(std::string(caseless ? "(?i)" : "") + open + alternation + close);
  } catch (const std::exception &e) {
    throw Error(ErrorKind::Usage, where + ": " + e.what());
  }
}

} // namespace

std::shared_ptr<const text::Regex> whole_token_regex(const json::Value &patterns, bool caseless,
                                                     const std::string &where, TokenIn in) {
  // In prose, "rsqrt-free" and "barrier-less" say the thing is absent
  // (kit 50, W02: "rsqrt-free recomputation" read as a fast-math step).
  const char *end = in == TokenIn::Prose ? ")(?!\\w)(?![-\\x{2010}](?:free|less)\\b)" : ")(?!\\w)";
  return alternation_regex(patterns, caseless, where, "(?<!\\w)(?:", end);
}

std::shared_ptr<const text::Regex> patterns_regex(const json::Value &patterns, bool caseless, const std::string &where,
                                                  PatternsMatch match) {
  return match == PatternsMatch::WholeText ? alternation_regex(patterns, caseless, where, "^(?:", ")$")
                                           : alternation_regex(patterns, caseless, where, "(?:", ")");
}

std::optional<std::string> rule_section(const json::Value &section, std::string_view where, std::string_view name) {
  if (section.is_null()) return std::nullopt;
  std::string here = std::string(where) + ": " + std::string(name);
  if (!section.is_object()) throw Error(ErrorKind::Usage, here + " must be an object");
  return here;
}

std::shared_ptr<const text::Regex> whole_token_regex_at(const json::Value &section, const char *key, bool caseless,
                                                        const std::string &where) {
  const auto &patterns = section.get(key);
  if (patterns.is_null()) return nullptr;
  return whole_token_regex(patterns, caseless, where + "." + key);
}

void TermVocabulary::add(const std::string &tag, const json::Value &patterns, std::string_view where) {
  if (tag.empty()) throw Error(ErrorKind::Usage, std::string(where) + ": a tag is empty");
  terms_.push_back({tag, whole_token_regex(patterns, true, std::string(where) + ": '" + tag + "'", TokenIn::Prose)});
}

TermVocabulary TermVocabulary::from_json(const json::Value &terms, std::string_view where) {
  const auto *obj = terms.as_object();
  if (!obj) throw Error(ErrorKind::Usage, std::string(where) + " must hold objects of tag -> list of patterns");
  TermVocabulary v;
  for (const auto &[tag, patterns] : *obj) v.add(tag, patterns, where);
  return v;
}

std::vector<std::string> TermVocabulary::tags_in(std::string_view text, const Accept &accept) const {
  std::vector<std::string> out;
  for (const auto &t : terms_) {
    if (!accept) {
      if (t.regex->contains(text)) out.push_back(t.tag);
      continue;
    }
    for (const auto &m : t.regex->find_all(text))
      if (accept(m[0])) {
        out.push_back(t.tag);
        break;
      }
  }
  return out;
}

std::vector<TermVocabulary::Hit> TermVocabulary::hits_in(std::string_view text) const {
  std::vector<Hit> out;
  for (const auto &t : terms_)
    t.regex->for_each_match(text, [&](const text::Match &m) { out.push_back({t.tag, m.begin, m.end}); });
  return out;
}

bool TermVocabulary::matches(const std::string &tag, std::string_view text) const {
  for (const auto &t : terms_)
    if (t.tag == tag && t.regex->contains(text)) return true;
  return false;
}

} // namespace otm::levers
