// A strategy's change as the run tried it before (issue 25, kit 31): the
// reverted attempts before the strategy whose own change (from the code
// each was made on) makes the edits that run which the strategy's own
// change also makes, however the run worded them ("enable VEC
// (ld.global.nc.v4)" and "enable 128-bit loads" are two tries of one
// change), together with those otm-partition matched by the settings
// their words state (the segment's `reverted_tries_before`).
//
//   auto tries = tries_of_this_change(ctx, "v93", {"v2"});   // {"v2", "v12"}
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "packet/packet.hpp"
#include "packet/run_facts.hpp"
#include "workspace/version_row.hpp"

namespace otm::packet {

// The versions, in run order, each once. An attempt counts when the
// strategy's own change adds at least half of the running lines the
// attempt adds (and one), whitespace aside, and the attempt at least half
// of those the strategy's change adds; an attempt that only removes
// lines, when it removes at least half of those (and the same the other way). A line moved or
// re-indented is no edit. Only `stated` without a repository or run
// facts.
std::vector<std::string> tries_of_this_change(const Context &ctx, const std::string &version,
                                              const std::vector<std::string> &stated);

// How a reverted try ended, as its own row states it: "did not build" (the
// compiler or the launch refused it), "failed its correctness check", or
// "measured" (it ran and was reverted for its speed). A try that never
// measured is no evidence that the gain depends on what the run kept
// since (kit 35, X12: a try that did not compile, read as "the gain may
// depend on" the steps kept after it).
std::string how_a_try_ended(const workspace::VersionRow &row);

// What a try that measured ("measured" above) measured against the code
// it was tried on, the last kept step before it with a geomean, in percent
// slower (negative: faster); nullopt otherwise. A try already faster needed
// nothing the run kept since (kit 56, O27; kit 54, Q11).
std::optional<double> try_slower_than_tried_on_pct(const RunFacts &facts, const workspace::VersionRow &row);

} // namespace otm::packet
