// A strategy's gain read against its run (issue 25): refused when it is
// inside the run's noise, rests on a few shapes, or also shows on shapes
// that run the same code before and after; drafted with the shapes it
// slowed (`regressions`) and how evenly the shapes earned it.
#pragma once

#include "distill/draft_context.hpp"

namespace otm::distill::drafting {

// Refuses (throws the drafter's refusal) a gain the run does not establish.
void established_gain(Context &c);

// Where a gain that a few shapes carry applies ("M>=2"): the variable
// axes on which the shapes that gained lie beyond the others; nullopt for
// a broad gain (retrieval.signals.shape_regime.predicate stays "*").
std::optional<std::string> gain_regime(const Context &c);

// " In the code the launch starts another number of programs on shape-3
// (M=2048, N=4096): 2048 -> 432; ... Latency changed by -5.66 % to -3.28 %
// there and by -2.0 % to 2.77 % elsewhere.": the shapes whose launch the
// change altered, set apart from those it launches as before (kit 30: a
// grid-stride loop's gain read as broad, and a one-row shape's slowdown,
// under the same single program, as the change's). Empty unless the packet
// counts every shape's programs and both kinds of shape are there.
std::string launch_by_shape(const Context &c);

// worth.gain: the measured geomean gain, its per-shape range and
// regressions, correctness and comparability; qualitative without a
// measurement.
Value strategy_gain(Context &c);

} // namespace otm::distill::drafting
