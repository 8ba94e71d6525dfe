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
    std::string code;
    const auto *forms = level.get("code").as_array();
    if (!forms || forms->empty())
      throw Error(ErrorKind::Usage, at + "." + name + ".code must be a non-empty list of patterns");
    for (const auto &f : *forms) {
      const auto *s = f.as_string();
      if (!s || s->empty())
        throw Error(ErrorKind::Usage, at + "." + name + ".code holds a pattern that is not a string");
      code += (code.empty() ? "" : "|") + *s;
    }
    try {
      r.levels_.push_back({name, levers::whole_token_regex(level.get("claims"), true, at + "." + name + ".claims"),
                           std::make_shared<const text::Regex>("(?:" + code + ")")});
    } catch (const text::RegexError &e) {
      throw Error(ErrorKind::Usage, at + "." + name + ".code: " + e.what());
    }
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
