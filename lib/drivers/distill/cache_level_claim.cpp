#include "distill/cache_level_claim.hpp"

#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"
#include "text/code_list.hpp"

namespace otm::distill {

CacheLevelRule CacheLevelRule::from_json(const json::Value &section, std::string_view where) {
  CacheLevelRule r;
  if (section.is_null()) return r;
  const std::string at = std::string(where) + ": cache_level_claims";
  const auto *levels = section.as_object();
  if (!levels) throw Error(ErrorKind::Usage, at + " must be an object of level -> {claims, code}");
  for (const auto &[name, level] : *levels) {
    if (!level.is_object()) throw Error(ErrorKind::Usage, at + "." + name + " must be an object");
    // Code qualifiers follow another qualifier (`ld.global.nc.L1::...`):
    // matched anywhere, not as whole tokens.
    r.levels_.push_back(
        {name, levers::whole_token_regex(level.get("claims"), true, at + "." + name + ".claims"),
         levers::patterns_regex(level.get("code"), false, at + "." + name + ".code", levers::PatternsMatch::Anywhere)});
  }
  return r;
}

std::optional<std::string> CacheLevelRule::contradiction(const std::string &mechanism,
                                                         std::string_view added_code) const {
  std::vector<std::string> claimed, in_code, qualifiers;
  bool claimed_in_code = false;
  for (const auto &l : levels_) {
    const bool claims = l.claims->contains(mechanism);
    const auto found = l.code->find_all(added_code);
    if (claims) claimed.push_back(l.name);
    if (!found.empty()) {
      in_code.push_back(l.name);
      for (const auto &m : found)
        if (qualifiers.size() < 3) qualifiers.emplace_back(m[0]);
    }
    claimed_in_code = claimed_in_code || (claims && !found.empty());
  }
  if (claimed.empty() || in_code.empty() || claimed_in_code) return std::nullopt;
  return "the cause names the " + text::prose_list(claimed) +
         " cache, but the cache qualifiers the change adds act on " + text::prose_list(in_code) + " only (" +
         text::quoted_code_list(qualifiers) + "): the code contradicts it";
}

} // namespace otm::distill
