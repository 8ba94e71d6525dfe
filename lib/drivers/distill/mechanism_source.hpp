// Where a drafted record's explanatory text comes from. The extractive
// drafter writes a mechanism only where the packet states one, and an
// anti-strategy only when the packet's own text yields a checkable
// condition and a mechanism that meets the established-fact bar (spec
// distill.md §4.2, wiki-gate.md §6). Nothing here paraphrases: every text
// returned is a verbatim piece (a whole field or one sentence of it).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "json/value.hpp"

namespace otm::distill {

struct SourcedText {
  std::string text;
  std::string source; // the agent_facing path it was quoted from
};

// Strategy mechanism: the run's own expected impact
// (what_the_run_said.expected_impact), else the profiler report conclusion
// when it comes from a capture of the kernel under test
// (profiler.conclusion_is_from_the_kernel_under_test). nullopt when the
// packet states neither.
std::optional<SourcedText> strategy_mechanism(const json::Value &agent_facing);

// True when `sentence` meets the established-fact bar for a mechanism: at
// least 40 code points, names a cause (MECHANISM), is no hollow measurement
// (NON_MECHANISM) and is not speculative (may / might / possibly / perhaps).
bool is_causal_mechanism(const std::string &sentence);

// The fields of established_fact.condition, each a verbatim token of the
// packet text; all empty when the text names no checkable condition.
struct Condition {
  std::string sm_arch, shape_regime, dtype, toolchain;
  bool empty() const { return sm_arch.empty() && shape_regime.empty() && dtype.empty() && toolchain.empty(); }
};
// The first architecture, shape-regime, dtype and toolchain token of the
// texts, in order. The operator's own GPU and fixed axes are not searched:
// where a run was measured is not a condition under which a lever fails.
Condition find_condition(const std::vector<SourcedText> &texts);

struct AntiFact {
  Condition condition;
  SourcedText mechanism;
  std::string verdict;
};
// Why an anti-strategy cannot be drafted: the field and the reason.
struct FactGap {
  std::string field;
  std::string why;
};
// The texts an anti-strategy's fact may come from, in order: the failed
// lever, how it was fixed, the profiler conclusion.
std::vector<SourcedText> anti_evidence(const json::Value &agent_facing);
// The established fact of an anti-strategy packet, or the gap.
// Verdict rule (documented in docs/distill-brief.md): api-limitation when
// the evidence says the tool cannot express or does not support it;
// accuracy-gate/ceiling when it names an accuracy/correctness failure or
// the quality gate failed; else not-worth-it-here (the run reverted it).
struct AntiFactResult {
  std::optional<AntiFact> fact;
  std::optional<FactGap> gap;
};
AntiFactResult anti_fact(const json::Value &agent_facing);

} // namespace otm::distill
