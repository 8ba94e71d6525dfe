// Where a drafted strategy's mechanism comes from. The extractive drafter
// writes a mechanism only where the packet states one. Nothing here
// paraphrases: every text returned is a verbatim piece (a whole field, one
// sentence of it, or a report's lines joined by spaces).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "distill/lever_prose.hpp"
#include "record/causal_sentences.hpp"
#include "json/value.hpp"

namespace otm::distill {

// Strategy mechanism, the first the packet states, in this order:
//   1. a causal sentence of the commit body (what_the_run_said.causal_sentences),
//   2. the run's expected impact (what_the_run_said.expected_impact),
//   3. a causal sentence of the report conclusion of a capture of the
//      kernel under test (profiler.conclusion_is_from_the_kernel_under_test),
//      its table rows, heading marks and "Next" section left out,
//   4. the rationale of an earlier open direction this step took up
//      (what_the_run_said.directions_taken_up),
//   5. a sentence of the change text itself that meets `causal`
//      ("Streaming stores so the output row does not evict …"): its clause
//      after "so", "because", ... or a dash, and only that (the change
//      restated is no cause of itself).
// A leading label ("Why: ") is left out of every source; a text holding a
// value the run's template left unfilled ("None rows per program") is
// skipped.
// nullopt when the packet states none.
// A source is skipped when `is_template(text)` says it is not the step's
// own (an expected impact the run states on many steps, a text the run's
// other strategies share).
using TemplateTest = std::function<bool(const std::string &source, const std::string &text)>;
std::optional<SourcedText> strategy_mechanism(const json::Value &agent_facing, const record::CausalRule &causal,
                                              const TemplateTest &is_template = {});

} // namespace otm::distill
