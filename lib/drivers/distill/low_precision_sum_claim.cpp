#include "distill/low_precision_sum_claim.hpp"

#include <algorithm>

#include "code/accumulators.hpp"
#include "levers/term_vocabulary.hpp"
#include "text/code_list.hpp"

namespace otm::distill {

LowPrecisionSumRule LowPrecisionSumRule::from_json(const json::Value &section, std::string_view where) {
  LowPrecisionSumRule r;
  const auto section_name = levers::rule_section(section, where, "low_precision_sums");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, here);
  return r;
}

std::optional<std::string> LowPrecisionSumRule::contradiction(const std::string &mechanism,
                                                              std::string_view code) const {
  if (!claims_ || code.empty()) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim) return std::nullopt;
  const auto sums = code::running_sums(code);
  if (sums.empty() || std::any_of(sums.begin(), sums.end(), [](const code::RunningSum &s) {
        return s.precision != code::RunningSum::Precision::Fp32;
      }))
    return std::nullopt;
  std::vector<std::string> names;
  for (const auto &s : sums) names.push_back(s.name);
  return "the cause says the sums are kept in low precision (\"" + std::string((*claim)[0]) +
         "\"), but every running sum of the kernel stays fp32 (" + text::quoted_code_list(names) +
         "): what the change rounds is what goes into them, not the sums";
}

} // namespace otm::distill
