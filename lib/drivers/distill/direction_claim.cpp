#include "distill/direction_claim.hpp"

#include <charconv>

#include "error/error.hpp"
#include "levers/lever_settings.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::distill {

namespace {

// The patterns of `section.key` as one alternation; throws naming it when
// it is no non-empty list of non-empty strings.
std::string alternation_at(const json::Value &section, const char *key, const std::string &where) {
  const auto *list = section.get(key).as_array();
  if (!list || list->empty())
    throw Error(ErrorKind::Usage, where + "." + key + " must be a non-empty list of patterns");
  std::string out;
  for (const auto &p : *list) {
    const auto *s = p.as_string();
    if (!s || s->empty()) throw Error(ErrorKind::Usage, where + "." + key + " holds a pattern that is not a string");
    out += (out.empty() ? "" : "|") + *s;
  }
  return out;
}

// "<word> [one word] <subject>", whole tokens, any case.
std::shared_ptr<const text::Regex> claim_regex(const std::string &words, const std::string &subjects,
                                               const std::string &where) {
  json::Value pattern = json::Value::array();
  pattern.push_back("(?:" + words + ")\\s+(?:[\\w/-]+\\s+)?(?:" + subjects + ")");
  return levers::whole_token_regex(pattern, true, where);
}

// The direction a stated setting moved ("256->128": -1), 0 when the text
// states no two numbers.
int moved(std::string_view stated) {
  static const text::Regex from_to(R"((\d+)\s*(?:->|→|=>|\bto\b)\s*(\d+))");
  auto m = from_to.search(stated);
  if (!m) return 0;
  long long a = 0, b = 0;
  auto parse = [](std::string_view s, long long &v) {
    return std::from_chars(s.data(), s.data() + s.size(), v).ec == std::errc();
  };
  if (!parse((*m)[1], a) || !parse((*m)[2], b) || a == b) return 0;
  return b > a ? 1 : -1;
}

} // namespace

DirectionClaimRule DirectionClaimRule::from_json(const json::Value &section, std::string_view where) {
  DirectionClaimRule r;
  const auto section_name = levers::rule_section(section, where, "direction_claims");
  if (!section_name) return r;
  for (const auto &[lever, entry] : *section.as_object()) {
    const std::string here = *section_name + "." + lever;
    if (!entry.is_object()) throw Error(ErrorKind::Usage, here + " must be an object");
    const std::string subjects = alternation_at(entry, "subjects", here);
    r.levers_.push_back({lever, claim_regex(alternation_at(entry, "up", here), subjects, here + ".up"),
                         claim_regex(alternation_at(entry, "down", here), subjects, here + ".down")});
  }
  return r;
}

std::optional<std::string> DirectionClaimRule::contradiction(const std::string &mechanism, const std::string &change,
                                                             const levers::LeverVocabulary &vocabulary) const {
  if (levers_.empty()) return std::nullopt;
  const std::string_view claim = levers::claim_of(change);
  const auto settings = levers::settings_in(vocabulary, claim);
  for (const auto &l : levers_) {
    for (int said : {1, -1}) {
      auto m = (said > 0 ? l.up : l.down)->search(mechanism);
      if (!m) continue;
      // Every stated move of the lever, and all the other way.
      std::string against;
      bool any = false, all_other_way = true;
      for (const auto &s : settings) {
        if (s.lever != l.id) continue;
        const auto stated = claim.substr(s.begin, s.end - s.begin);
        const int way = moved(stated);
        if (way == 0) continue;
        any = true;
        if (way == said) all_other_way = false;
        against += (against.empty() ? "" : ", ") + std::string(stated);
      }
      if (any && all_other_way)
        return "the mechanism says \"" + std::string((*m)[0]) + "\", but the change moved it the other way (" +
               against + ")";
    }
  }
  return std::nullopt;
}

std::optional<std::string> DirectionClaimRule::contradiction(const std::string &mechanism,
                                                             const std::vector<Move> &moves) const {
  for (const auto &l : levers_)
    for (int said : {1, -1}) {
      auto m = (said > 0 ? l.up : l.down)->search(mechanism);
      if (!m) continue;
      for (const auto &mv : moves)
        if (mv.lever == l.id && mv.way == -said)
          return "the cause says \"" + std::string((*m)[0]) + "\", but the attempt moved it the other way (" +
                 mv.shown + "): it is the run's account of the other direction";
    }
  return std::nullopt;
}

} // namespace otm::distill
