#include "levers/lever_settings.hpp"

#include <algorithm>
#include <set>

#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"

namespace otm::levers {

namespace {

// A stated value: a number (with an `x` factor mark: "x2", "2x"), a quoted
// literal, a cache modifier, a boolean, a tensor layout (NCHW, NHWC), or a
// number word.
#define OTM_VALUE                                                                                                      \
  R"((?:[x×]?\d+(?:\.\d+)?[x×]?(?!\w|\.\w)|"[^"\s]{1,24}"|'[^'\s]{1,24}'|`[^`\s]{1,24}`|\.[a-z]{2}(?!\w)|)"          \
  R"((?i:true|false|nchw|nhwc|ncdhw|ndhwc)(?!\w)|(?:one|two|three|four|five|six|seven|eight|sixteen|single|double)(?!\w)))"

const text::Regex &after_mention() {
  // "=512", ": 1 -> 2", " 8→4", " to 1024", " of 2", " hints of 2", " with 16",
  // " from 4096 to 8192" (the last of the chain),
  // " split=16" (a word between: "flash-decoding split=16"), " \".cg\"",
  // " per row-program 8→2" (what the count is of: "warp count per ...").
  static const text::Regex r(
      R"(^(?:\s*(?:=|:|->|→|=>)\s*|\s+(?:to|of|at|with|from)\s+|\s+[a-z]+\s+(?:of|to|with)\s+|\s+[a-z]+\s*=\s*|)"
      R"(\s+per\s+[a-z][\w-]*(?:\s*(?:=|:|->|→|=>)\s*|\s+(?:to|of|at|with|from)\s+|\s+)|\s*)()" OTM_VALUE
      R"()(?:\s*(?:->|→|=>|\bto\b)\s*()" OTM_VALUE R"())*)");
  return r;
}

const text::Regex &before_mention() {
  // "4 warps", "3-stage", "a single warp".
  static const text::Regex r(R"((?:^|[\s(,;:/])(\d+|one|two|three|four|eight|sixteen|single|double)[\s-]*$)");
  return r;
}

const text::Regex &inside_mention() {
  // "half" inside a mention is a width ("half-precision accumulators" is
  // the lesson "fp16 accumulation" states: round 13 served both).
  static const text::Regex r(R"(\d+|(?<![\w])(?:one|two|three|four|eight|sixteen|single|double|half)(?!\w))");
  return r;
}

const text::Regex &value_alone() {
  static const text::Regex r(std::string("^") + OTM_VALUE + "$");
  return r;
}

// The text before a mention that drops or removes the lever.
const text::Regex &dropped_before() {
  static const text::Regex r(
      R"((?i)\b(?:drop(?:s|ped|ping)?|remov(?:e|es|ed|ing)|without|disabl(?:e|es|ed|ing))\b[^.;,]{0,32}$)");
  return r;
}

std::string normalised_value(std::string_view raw) {
  std::string v = text::to_lower(text::strip_chars(raw, "\"'`"));
  for (const char *mark : {"x", "\xC3\x97"}) {
    std::string_view m(mark);
    if (v.size() > m.size() && v.starts_with(m) && std::isdigit(static_cast<unsigned char>(v[m.size()])))
      v.erase(0, m.size());
    if (v.size() > m.size() && v.ends_with(m) && std::isdigit(static_cast<unsigned char>(v[v.size() - m.size() - 1])))
      v.erase(v.size() - m.size());
  }
  static const std::pair<const char *, const char *> words[] = {
      {"one", "1"},  {"single", "1"}, {"two", "2"},   {"double", "2"}, {"three", "3"},    {"four", "4"},
      {"five", "5"}, {"six", "6"},    {"seven", "7"}, {"eight", "8"},  {"sixteen", "16"}, {"half", "16"}};
  for (const auto &[w, d] : words)
    if (v == w) return d;
  return v;
}

} // namespace

#undef OTM_VALUE

std::string what_a_change_did(const std::string &change) {
  auto sentences = text::sentences(change);
  return sentences.empty() ? change : std::move(sentences.front());
}

std::string setting_name(std::string_view mention) {
  static const text::Regex name(R"(^[A-Za-z_][\w.]*)");
  auto m = name.search(mention);
  return m ? std::string((*m)[0]) : std::string();
}

std::string tile_axis(std::string_view mention) {
  static const text::Regex named(R"(^(?:(?:BLOCK|TILE)(?:_SIZE)?_([A-Z][A-Z0-9]*)|B([MNKD]))(?!\w))");
  static const text::Regex words(R"(^([MNK])[- ](?:tiles?|steps?|chunks?)\b)");
  if (auto m = named.search(mention)) {
    std::string axis(m->has(1) ? (*m)[1] : (*m)[2]);
    return axis == "SIZE" ? std::string() : axis; // `BLOCK_SIZE`: a block, no axis
  }
  if (auto m = words.search(mention)) return std::string((*m)[1]);
  return {};
}

bool is_named_value(std::string_view value) {
  return !value.empty() && !std::isdigit(static_cast<unsigned char>(value[0])) && value != "true" && value != "false" &&
         !value.starts_with("no ");
}

std::vector<LeverSetting> settings_in(const LeverVocabulary &vocabulary, std::string_view text) {
  std::vector<LeverSetting> out;
  for (const auto &m : vocabulary.mentions(text)) {
    LeverSetting s{m.tag, "", m.begin, m.end, {}};
    std::string_view mention = text.substr(m.begin, m.end - m.begin);
    if (auto a = after_mention().match(text.substr(m.end))) {
      s.value = normalised_value(a->has(2) ? (*a)[2] : (*a)[1]);
      s.end = m.end + a->end;
    } else if (value_alone().match(mention)) {
      s.value = normalised_value(mention);
    } else if (auto in = inside_mention().search(mention)) {
      s.value = normalised_value((*in)[0]);
    } else if (auto b = before_mention().search(text.substr(0, m.begin))) {
      s.value = normalised_value((*b)[1]);
      s.begin = b->begin + (b->groups[1]->data() - (text.data() + b->begin));
    }
    if (!s.value.empty() && dropped_before().contains(text.substr(0, m.begin))) s.value = "no " + s.value;
    s.axis = tile_axis(mention);
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<ConstantSetting> constant_settings_in(std::string_view text) {
  static const text::Regex named(
      R"(\b([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|k[A-Z][A-Za-z0-9]*)\s*(?:=\s*|:\s*|\s+from\s+|\s+)(\d+)((?:\s*(?:->|\x{2192}|=>|\bto\b)\s*\d+)*))");
  static const text::Regex last_number(R"((\d+)\s*$)");
  std::vector<ConstantSetting> out;
  named.for_each_match(text, [&](const text::Match &m) {
    std::string value(m[2]);
    if (auto last = last_number.search(m[3])) value = std::string((*last)[1]);
    out.push_back({std::string(m[1]), std::move(value)});
  });
  return out;
}

std::string_view claim_of(std::string_view text) {
  static const text::Regex cause(
      R"((?i)(?:[\s,]+(?:so that|so|because|since|due to|thanks to|which|as a result of|caused by)\b|)"
      R"(\s*\(\s*(?:reverted|dead[- ]end)|;|\s+[\x{2014}\x{2013}-]{1,2}\s+))");
  auto m = cause.search(text);
  return m && m->begin > 0 ? text.substr(0, m->begin) : text;
}

bool claims_several_changes(std::string_view change_text) {
  static const text::Regex change(R"((?i)->|→|\w\s*=\s*\w|^\s*(?:[a-z]+\s+)?(?:enable|disable|drop|remove|use|add)\b)");
  auto claim = change_text.substr(0, change_text.find(". "));
  std::size_t parts = 0;
  for (std::size_t begin = 0;;) {
    auto plus = claim.find(" + ", begin);
    if (!change.contains(claim.substr(begin, plus == std::string_view::npos ? plus : plus - begin))) return false;
    ++parts;
    if (plus == std::string_view::npos) break;
    begin = plus + 3;
  }
  return parts > 1;
}

std::string failed_lever_key(const LeverVocabulary &vocabulary, std::string_view text, std::string_view dsl) {
  std::string_view claim = claim_of(text);
  std::set<std::string> pairs, named;
  std::set<std::string> seen;
  for (const auto &s : settings_in(vocabulary, claim)) {
    named.insert(s.lever);
    const std::string knob = s.axis.empty() ? s.lever : s.lever + "[" + s.axis + "]";
    if (!s.value.empty() && seen.insert(knob).second) pairs.insert(knob + "=" + s.value);
  }
  // Levers named at no value ("warp specialisation", "warp_specialize
  // handoff latency") are those levers, however the text words them.
  if (pairs.empty()) pairs = named;
  std::string key = "lever:" + text::to_lower(dsl) + ":";
  if (!pairs.empty()) {
    bool first = true;
    for (const auto &p : pairs) (first ? key : key += ";") += p, first = false;
    return key;
  }
  // The words: no figure in brackets, no verdict boilerplate, no punctuation.
  static const text::Regex brackets(R"(\([^()]*\))");
  static const text::Regex boilerplate(R"((?i)\b(?:reverted|dead[- ]end recorded|committed|kept)\b)");
  static const text::Regex other(R"([^a-z0-9._]+)");
  std::string t = brackets.replace(claim, " ");
  t = boilerplate.replace(t, " ");
  t = other.replace(text::to_lower(t), " ");
  return "text:" + text::to_lower(dsl) + ":" + std::string(text::strip_chars(t, " ."));
}

bool is_lever_key(std::string_view key) { return key.starts_with("lever:"); }

std::vector<std::string> without_superseded_steps(std::vector<std::string> steps, const LeverVocabulary &vocabulary) {
  std::vector<std::string> out = std::move(steps);
  // Steps that only set the same levers again (num_stages 1->2, 2->1,
  // 1->2: kit 24's "cluttered" change): the last one says what the diff
  // holds. A step that also says something else stays.
  auto set_levers = [&](const std::string &step, bool only) {
    static const text::Regex word(R"(\b[A-Za-z]{3,}\b)");
    std::set<std::string> ids;
    // Its first sentence says what it changed; the rest is why.
    const std::string first = what_a_change_did(step);
    const std::string_view claim = levers::claim_of(first);
    std::string rest(claim);
    const auto settings = levers::settings_in(vocabulary, claim);
    for (auto st = settings.rbegin(); st != settings.rend(); ++st) {
      ids.insert(st->lever); // "drop X" then "enable X": the later says what holds
      rest.erase(st->begin, st->end - st->begin);
    }
    if (only && word.find_all(rest).size() > 2) ids.clear(); // a verb of change and a word, no more
    return ids;
  };
  // The same knob named with another verb or value ("drop APPROX_RSQRT
  // (__frsqrt_rn)", then "enable APPROX_RSQRT (__frsqrt_rn)"): its first
  // sentence without glosses in brackets, verbs of change and values.
  auto subject_of = [](const std::string &step) {
    static const text::Regex gloss(R"(\s*\([^()]*\))");
    static const text::Regex verb(
        R"((?i)^\s*(?:(?:moved|changed|set|switched|enabled?|disabled?|dropped|drop|removed?|added?|used?|turned (?:on|off))\s+)+)");
    static const text::Regex value(R"((?i)\s*(?:=|:)?\s*-?\d[\w.]*\s*(?:->|\x{2192})\s*-?\d[\w.]*|\s*=\s*\S+)");
    std::string first = what_a_change_did(step);
    first = value.replace(verb.replace(gloss.replace(first, ""), ""), "");
    return text::folded(text::rstrip_chars(first, " ."));
  };
  for (std::size_t i = 0; i < out.size();) {
    const auto ids = set_levers(out[i], true);
    const auto subject = subject_of(out[i]);
    const bool set_again =
        std::any_of(out.begin() + static_cast<std::ptrdiff_t>(i) + 1, out.end(), [&](const std::string &later) {
          return (!ids.empty() && set_levers(later, false) == ids) ||
                 (!subject.empty() && subject_of(later) == subject);
        });
    if (set_again)
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(i));
    else
      ++i;
  }
  return out;
}

} // namespace otm::levers
