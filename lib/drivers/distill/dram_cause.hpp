// A cause that claims the change cut DRAM traffic, checked against the
// run's captures of the kernel before and after the change (issue 25,
// rounds 15-16: "Cuts scale traffic from DRAM by 128x" for a change whose
// captures show the same DRAM bytes before and after; the repeated scale
// loads it removed were cache hits). The `dram_claims` section says which
// words claim DRAM traffic and how much it must have fallen:
//   "dram_claims": {
//     "traffic": ["(?:DRAM|HBM) (?:traffic|bytes|reads?)", ...],
//     "min_cut_pct": 5
//   }
// Such a cause is contradicted when the packet's
// `profiler.dram_traffic_vs_measured_against.bytes_after_over_before`
// (otm-packet: DRAM throughput times duration, after over before, same
// kernel and shape) shows less than `min_cut_pct` percent fewer bytes.
// Without such a pair of captures nothing is contradicted.
//
//   auto rule = DramCauseRule::from_json(config.data().get("dram_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, profiler)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class DramCauseRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static DramCauseRule from_json(const json::Value &section, std::string_view where);
  // `profiler`: a packet's agent_facing.profiler.
  std::optional<std::string> contradiction(const std::string &mechanism, const json::Value &profiler) const;

private:
  std::shared_ptr<const text::Regex> traffic_;
  double min_cut_pct_ = 5.0;
};

} // namespace otm::distill
