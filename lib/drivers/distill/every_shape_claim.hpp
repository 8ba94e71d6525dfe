// A cause that claims every shape, checked against each shape's measurement
// (issue 25, round 14: "K/V traffic drops by the group size (4x) on every
// shape" for a change that made two of five shapes slower; "2x more
// parallelism for every shape" where the shapes that already filled the GPU
// did not move). The `shape_claims` section says which words claim every
// shape:
//   "shape_claims": {
//     "every_shape": ["every (?:benchmarked )?shape", "all (?:the )?shapes", ...]
//   }
// Such a cause is contradicted when, against the step it is measured
// against, a shape measured slower by more than the run's per-shape spread
// of re-measurements of unchanged code, or when some shapes gained by more
// than that spread and others did not. Without the spread nothing tells a
// shape's change from noise, and nothing is contradicted; fewer than two
// measured shapes decide nothing.
//
//   auto rule = EveryShapeRule::from_json(config.data().get("shape_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, measurements)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class EveryShapeRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static EveryShapeRule from_json(const json::Value &section, std::string_view where);
  // `measurements`: a packet's agent_facing.measurements.
  std::optional<std::string> contradiction(const std::string &mechanism, const json::Value &measurements) const;

private:
  std::shared_ptr<const text::Regex> every_shape_;
};

} // namespace otm::distill
