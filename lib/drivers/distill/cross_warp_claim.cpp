#include "distill/cross_warp_claim.hpp"

#include "levers/term_vocabulary.hpp"

namespace otm::distill {

CrossWarpClaimRule CrossWarpClaimRule::from_json(const json::Value &section, std::string_view where) {
  CrossWarpClaimRule r;
  const auto section_name = levers::rule_section(section, where, "cross_warp_claims");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, here);
  r.device_code_ = levers::whole_token_regex_at(section, "device_code", false, here);
  r.exchange_ = levers::whole_token_regex_at(section, "exchange", false, here);
  return r;
}

std::optional<std::string> CrossWarpClaimRule::contradiction(const std::string &mechanism, std::string_view code_after,
                                                             std::string_view removed) const {
  if (!claims_ || !device_code_ || !exchange_ || code_after.empty()) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim || !device_code_->contains(code_after)) return std::nullopt;
  if (exchange_->contains(code_after) || exchange_->contains(removed)) return std::nullopt;
  return "the mechanism speaks of data moving between warps (\"" + std::string((*claim)[0]) +
         "\"), but the kernel, before and after the change, gives its warps no way to exchange data (no shared "
         "memory, block barrier or atomic): each warp works alone, so the warp count changes only how the work "
         "is split into blocks";
}

} // namespace otm::distill
