// The established fact of a failed lever. The extractive drafter writes an
// anti-strategy only when the packet's own text yields a checkable
// condition and a mechanism that meets the established-fact bar (spec
// distill.md §4.2, wiki-gate.md §6; the rule itself is
// record/established_fact.hpp, shared with partition and the gates).
// Nothing here paraphrases: every text is a verbatim piece of the packet.
#pragma once

#include <optional>
#include <string>

#include "distill/lever_prose.hpp"
#include "levers/lever_vocabulary.hpp"
#include "record/established_fact.hpp"
#include "json/value.hpp"

namespace otm::distill {

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
