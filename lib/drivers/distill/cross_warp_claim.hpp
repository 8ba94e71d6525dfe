// A cause about data moving between the warps of a block, checked against
// CUDA source that gives its warps no way to exchange data (kit 28, Q21:
// "with E<=256 one warp holds the whole row, so extra warps only add
// cross-warp reductions" for WARPS_PER_BLOCK 4 -> 2, on a kernel where
// each warp owns its rows and every reduction is a `__shfl_xor_sync`
// within one warp: the lever only halves the block and doubles the grid).
// The `cross_warp_claims` section says which words make the claim, which
// code marks device source this rule can read, and which code lets warps
// exchange data:
//   "cross_warp_claims": {
//     "claims": ["cross[- ]warp (?:reductions?|exchange)", "block[- ]wide reductions?", ...],
//     "device_code": ["__global__"],
//     "exchange": ["__shared__", "__syncthreads", "BlockReduce", "atomic\\w*\\s*\\(", ...]
//   }
// Such a cause is contradicted when the kernel after the change is device
// source (Triton and Gluon reductions are the compiler's to lay out: they
// decide nothing) and neither it nor the lines the change removed hold
// any of the exchange patterns.
//
//   auto rule = CrossWarpClaimRule::from_json(config.data().get("cross_warp_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, code_after, removed)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class CrossWarpClaimRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static CrossWarpClaimRule from_json(const json::Value &section, std::string_view where);
  // `code_after`: the kernel file after the change; `removed`: the lines
  // the change removed (the code before it holds those too).
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view code_after,
                                           std::string_view removed) const;

private:
  std::shared_ptr<const text::Regex> claims_, device_code_, exchange_;
};

} // namespace otm::distill
