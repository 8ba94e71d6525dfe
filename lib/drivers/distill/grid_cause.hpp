// A cause about the launch grid checked against each shape's program count
// (issue 25, round 9: persistent row loops credited with a gain that sat on
// shapes whose program count did not change; split-K "to fill the SMs" with
// its largest gains on shapes that already filled them). The packet carries,
// per shape, the programs its launch started before and after the change
// (`programs_before` / `programs_after`, code::programs_per_shape) and the
// product's SM count; the `launch_grid` section says which words make a
// cause one about the grid:
//   "launch_grid": {
//     "sm_count": {"h100": 132, ...},                       // config::Config::sm_count
//     "causes": ["partial (?:last )?wave", ...],            // the grid decides the gain
//     "fill_causes": ["fill(?:s|ed)? (?:all )?the SMs", ...], // more programs fill idle SMs
//     "tail_removal_causes": ["no tail wave", ...],         // the change leaves no tail
//     "tail_rounds_max": 8,
//     "tail_seen": ["tail effect visible", ...],          // a profile that still sees a tail
//     "sm_count_claims": ["grid\\s*=\\s*#\\s*SMs", ...],  // a change saying the grid is the SM count
//     "sm_count_names": ["num_sms", "NUM_SMS", ...]         // code's names of the SM count
//   }
// A grid cause is contradicted when no shape's program count changed, or
// when the shapes whose count did not change gained at least as much as
// those whose count did; a fill cause, when every shape already started
// at least one program per SM before the change, or when those gained at
// least as much as the shapes that did not. Shapes without counts decide
// nothing; fewer than two counted shapes decide nothing. A tail-removal
// cause (a persistent grid "removing wave-quantisation tails") is
// contradicted by a shape whose program count the change cut (its programs
// now loop over the units the old grid gave one program each) when that
// loop still ends on a partial round: at most `tail_rounds_max` rounds, the
// last with at most half the programs busy (kit 39, K09: 448 tiles over 148
// programs leave 144 of them idle for the fourth of four rounds).
//
// A tail-removal cause is contradicted, too, by the profile of the kernel
// after the change when it still sees a tail ("Tail effect visible: the
// last wave is under-utilized": kit 52, Y14).
// A change text saying the grid is the SM count ("persistent loop (grid =
// #SMs)") is contradicted by a diff whose added running lines launch a
// multiple of it (`std::min(rows, num_sms * 4)`: kit 51, X13; kit 50, W14).
//
//   auto rule = GridCauseRule::from_json(config.data().get("launch_grid"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, measurements)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "diff/diff_reading.hpp"
#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class GridCauseRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static GridCauseRule from_json(const json::Value &section, std::string_view where);
  // `measurements`: a packet's agent_facing.measurements.
  std::optional<std::string> contradiction(const std::string &mechanism, const json::Value &measurements) const;
  // `profiler`: a packet's agent_facing.profiler.
  std::optional<std::string> tail_seen_contradiction(const std::string &mechanism, const json::Value &profiler) const;
  std::optional<std::string> sm_count_claim_contradiction(const std::string &change,
                                                          const diff::DiffReading &diff) const;

private:
  std::shared_ptr<const text::Regex> causes_, fill_causes_, tail_removal_causes_;
  std::shared_ptr<const text::Regex> sm_count_claims_, sm_count_multiple_, tail_seen_;
  double tail_rounds_max_ = 8;
};

} // namespace otm::distill
