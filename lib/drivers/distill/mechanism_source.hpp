// Where a drafted record's explanatory text comes from. The extractive
// drafter writes a mechanism only where the packet states one, and an
// anti-strategy only when the packet's own text yields a checkable
// condition and a mechanism that meets the established-fact bar (spec
// distill.md §4.2, wiki-gate.md §6; the rule itself is
// record/established_fact.hpp, shared with partition and the gates).
// Nothing here paraphrases: every text returned is a verbatim piece (a
// whole field, one sentence of it, or a report's lines joined by spaces).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "levers/lever_vocabulary.hpp"
#include "record/causal_sentences.hpp"
#include "record/established_fact.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct SourcedText {
  std::string text;
  std::string source; // the agent_facing path it was quoted from
};

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

// `text` without a label the run put before its reason ("Why: one tile now
// spans the row" -> "one tile now spans the row"): the record's field
// already says what the text is. Unchanged when little would be left.
std::string without_reason_label(const std::string &text);
// A reason as two texts are compared for sameness: case-folded, without a
// short label ("Why: ", "Change: ", "tail effect: "), a leading
// connective ("because ") or closing punctuation. What stock_sentence and
// restates_the_change both compare.
std::string comparable_reason(const std::string &text);
// What a text says was tried: the lever before the clause giving its cause
// or the predicate judging it, without a trailing figure, a second
// sentence or a verb of trying ("Moved enable X + Y 1->4. After ..." ->
// "enable X + Y 1->4"), as long as it still says what was tried.
std::string lever_without_its_cause(const std::string &lever, const levers::LeverVocabulary &vocabulary);

// What a sentence says beyond the attempt it repeats (unless the attempt
// holds a cause of its own) and the run's verdict in brackets
// ("(correctness FAIL, max_abs_err=0.06)", "(+4.0%)").
std::string beyond_the_attempt(const std::string &sentence, const std::string &attempted);

// The fact context of a packet (record::fact_context_of_packet): its DSL,
// fixed axes, and whether its correctness status or quality gate failed.
record::FactContext fact_context(const json::Value &agent_facing);

struct AntiFact {
  std::string attempted;
  record::FactCondition condition;
  SourcedText mechanism;
  std::string verdict;
  // The attempt never built (record::build_failure_regex): api-limitation,
  // a limit of the toolchain at that setting, never a measured speed.
  bool did_not_build = false;
  std::optional<std::string> fix; // how the run fixed or avoided it, verbatim
  // The figure the run stated beside the isolated lever ("+4.0%" of
  // "... narrower loads (+4.0%)"), verbatim: what was observed when the
  // step's own checks did not fail.
  std::optional<std::string> stated_effect;
};
// Why an anti-strategy cannot be drafted: the field and the reason.
struct FactGap {
  std::string field;
  std::string why;
};
struct AntiFactResult {
  std::optional<AntiFact> fact;
  std::optional<FactGap> gap;
};
// The established fact of an anti-strategy packet, or the gap.
//   * A packet that isolates one lever (the_failed_lever): attempted = the
//     lever without its cause clause, its judging predicate ("gains
//     nothing", "is slower") and a trailing bracketed figure, which is the
//     stated effect; the mechanism is the first sentence of the lever, then of its
//     fix, that record::states_mechanism accepts.
//   * A prose dead-end (no isolated lever) whose change text names one lever
//     (its first sentence holds at most one setting arrow and no `;`,
//     top-level `,`, ` + ` or "also", and no later sentence sets another
//     lever): attempted = that sentence without its verb; the sentences after
//     it are why the run hoped it would pay, never the mechanism. The
//     mechanism is, for a step whose correctness check failed, the first
//     sentence of the explanation of a pitfall of the version about the lever
//     (one naming a lever the change text names, or none: `vocabulary`; a step
//     record carries other levers' pitfalls too) that could stand as a cause;
//     else the first accepted sentence of those pitfalls, then of the commit
//     subject (without a leading "reverted") and body. Several levers: no
//     record (choosing one is a judgement).
//   * Condition: record::fact_condition over the same texts and the packet's
//     fact context.
//   * Verdict: api-limitation when the evidence says the tool cannot express
//     or does not support it; accuracy-gate/ceiling when the step failed its
//     correctness check or quality gate and the evidence names an accuracy
//     failure, or when the mechanism names one; else not-worth-it-here.
AntiFactResult anti_fact(const json::Value &agent_facing, const levers::LeverVocabulary &vocabulary);

} // namespace otm::distill
