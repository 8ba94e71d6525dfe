// A strategy's checks, before anything is written: a change that runs, in
// code that can run as written; claims the diff bears out; the step's own
// span; a gain beyond the noise (strategy_gain); a mechanism of the step's
// own that the packet does not contradict. Each failed check refuses the
// record (drafting::refuse); what passes is what the record is written
// from (strategy_drafter.cpp).
#pragma once

#include <string>
#include <vector>

#include "diff/diff_reading.hpp"
#include "distill/draft_context.hpp"
#include "distill/mechanism_source.hpp"
#include "levers/lever_reading.hpp"

namespace otm::distill::drafting {

// What a strategy stands on once every refusal has passed: its change
// text, the diff and the levers the text claims that the code bears out,
// the earlier kept steps its diff also holds, and its mechanism.
struct Checked {
  std::string change, range, dsl;
  diff::DiffReading diff;
  levers::LeverReading levers;
  std::vector<std::string> earlier;
  SourcedText mech;
};

// Every check, in the order a reader would ask: code, gain, claim, reason.
Checked check_strategy(Context &c);

// Whether the step's expected impact is the run's template: the same
// sentence stated by at least `template_min_steps` steps.
bool expected_impact_is_template(const Context &c);

} // namespace otm::distill::drafting
