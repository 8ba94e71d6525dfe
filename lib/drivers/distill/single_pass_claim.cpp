#include "distill/single_pass_claim.hpp"

#include "code/repeated_passes.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::distill {

SinglePassRule SinglePassRule::from_json(const json::Value &section, std::string_view where) {
  SinglePassRule r;
  const auto section_name = levers::rule_section(section, where, "single_pass_claims");
  if (!section_name) return r;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, *section_name);
  return r;
}

std::optional<std::string> SinglePassRule::contradiction(const std::string &mechanism, std::string_view code) const {
  if (!claims_ || code.empty()) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim) return std::nullopt;
  const auto passes = code::pointer_read_in_two_passes(code);
  if (!passes) return std::nullopt;
  return "the cause says the data is read once (\"" + std::string((*claim)[0]) +
         "\"), but the kernel after the "
         "change reads `" +
         passes->name + "` in two loops, neither inside the other (lines " + std::to_string(passes->first_line + 1) +
         " and " + std::to_string(passes->second_line + 1) + ")";
}

} // namespace otm::distill
