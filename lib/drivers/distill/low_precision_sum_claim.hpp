// A cause saying the sums are kept in low precision ("accumulating 16k
// squares in bf16 loses low-order terms", "summing ~1.5e5 exponentials in
// bf16"), checked against the running sums of the kernel it is about
// (code::running_sums): kit 28's Q01 and Q13 and kit 29's R14 and R19 cast
// the loads or the squares to bf16 while every sum stayed fp32. The
// `low_precision_sums` section says which words make the claim:
//   "low_precision_sums": {"claims": ["(?:accumulat\\w+|summ\\w*) (?:\\S+ ){0,4}?in (?:bf16|fp16)", ...]}
// Such a cause is contradicted when the kernel has running sums and every
// one of them is fp32; a sum whose precision the reader cannot tell, or
// one in low precision, decides nothing.
// Its `long_sums` say a sum adds many terms ("over a long reduction",
// "thousands of terms"); such a cause is contradicted when every running
// sum adds inside a loop whose bound is at most `short_sum_terms` (a
// literal, or a name the operator's fixed axes set: `WIDTH` for
// `width: 4`), kit 47's T09: the rounding of 4 taps, not a long sum.
//
//   auto rule = LowPrecisionSumRule::from_json(config.data().get("low_precision_sums"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, code)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class LowPrecisionSumRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static LowPrecisionSumRule from_json(const json::Value &section, std::string_view where);
  // `code`: the kernel file the cause is about (an attempt's, a change's after it).
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view code) const;
  // `fixed_axes`: the operator's fixed axes (`{"width": 4}`), which may
  // bound a loop by name.
  std::optional<std::string> short_sum_contradiction(const std::string &mechanism, std::string_view code,
                                                     const json::Value &fixed_axes) const;

private:
  std::shared_ptr<const text::Regex> claims_, long_sums_;
  long long short_sum_terms_ = 0;
};

} // namespace otm::distill
