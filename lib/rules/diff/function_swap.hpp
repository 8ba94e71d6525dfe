// An attempt that changes which function the kernel computes (kit 47, T04:
// "fast GELU" swapped the operator's SiLU, `g / (1.f + expf(-g))`, for a
// tanh-approximated GELU). What the run measured of it, speed or accuracy,
// is of another operator, not of the lever it names. The
// `function_swap` section lists function families, each with the code
// forms that compute it:
//   "function_swap": {"families": {"silu": ["\\bsilu\\b", "sigmoid", ...],
//                                  "gelu": ["\\bgelu\\b", "\\berff?\\b", "0\\.044715", ...]}}
// A diff swaps functions when its removed code lines hold a family its
// added lines do not, and its added lines hold another family its removed
// lines do not. An approximation within one family (erf GELU to tanh
// GELU) is no swap. An absent section checks nothing.
//
//   auto rule = FunctionSwapRule::from_json(config.data().get("function_swap"), "otm-config.json");
//   if (auto swap = rule.swapped(diff_text)) swap->from, swap->to
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::diff {

struct FunctionSwap {
  std::string from, to; // family names
};

class FunctionSwapRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static FunctionSwapRule from_json(const json::Value &section, std::string_view where);
  // `diff`: a unified diff of the kernel file; comments are not code.
  std::optional<FunctionSwap> swapped(std::string_view diff) const;
  // Why what was measured is not the lever's: the ledger's words.
  static std::string why_not_the_lever(const FunctionSwap &swap);

private:
  std::vector<std::pair<std::string, std::shared_ptr<const text::Regex>>> families_;
};

} // namespace otm::diff
