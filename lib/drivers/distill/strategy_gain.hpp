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

// worth.gain: the measured geomean gain, its per-shape range and
// regressions, correctness and comparability; qualitative without a
// measurement.
Value strategy_gain(Context &c);

} // namespace otm::distill::drafting
