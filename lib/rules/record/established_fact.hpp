// The established-fact rule for negative knowledge (spec wiki-gate.md §6,
// partition.md §3): the regexes, what counts as a condition and as a
// mechanism, and the record check, in one place used by partition's fact
// pre-check, the drafter, the store's established-fact gate and the
// admission gate, so triage, drafting and enforcement cannot disagree.
//
// Spellings: every stem with a British/American pair matches both
// (serialises/serializes, utilisation/utilization, behaviour/behavior).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::record {

// A checkable condition named in prose (architecture, shape, dtype, toolchain).
const text::Regex &condition_regex();
// Hollow phrases that report a measurement or bookkeeping, not a cause.
const text::Regex &non_mechanism_regex();
// Words that state a cause.
const text::Regex &mechanism_regex();
// Words that name an accuracy or correctness failure.
const text::Regex &accuracy_failure_regex();
// Of those, the words that say results came out wrong (a mismatch, NaNs, an
// index that overflowed, an access out of bounds, a race), not only which
// check judged them: an account using them reports a correctness failure
// whatever else it says.
const text::Regex &wrong_results_regex();
// Words that say the attempt's code never built: the compiler stopped at
// it, or its launch asked for more registers or shared memory than there
// are ("CompilationError ... register budget exceeded", "ptxas: too many
// resources requested", a COMPILE_FAIL status). Such an attempt was never
// measured: its failure is the toolchain's limit at that setting, not a
// speed the run saw (round 17: a BLOCK_S that did not compile written up
// as "do not expect it to pay off").
const text::Regex &build_failure_regex();
// The on-chip resource a text names as exhausted or over its limit
// ("cudaFuncSetAttribute(...MaxDynamicSharedMemorySize, 245760) exceeds the
// 232448-byte opt-in limit": "shared memory"; "ptxas: too many resources
// requested": "registers"), or nullopt. A build or launch failure whose
// quoted error names one is that resource's limit at the setting tried,
// whatever cause the run's prose gives (kit 47, T05: "warp_specialize
// requires an async producer" for a pipeline 5 stages deep over H100's
// shared memory).
std::optional<std::string_view> resource_named(std::string_view text);
// Words that say the attempt ran out of time rather than failed a check
// ("TIMEOUT_FAIL: benchmark exceeded 900 s", "timed out", "hung"): a
// failure the same lever's other runs contradict when they completed.
const text::Regex &timeout_regex();
// Words that say a launch, not a compile, was refused ("CUDA error:
// invalid argument -- cudaFuncSetAttribute(...)", "hipErrorInvalidValue").
const text::Regex &launch_failure_regex();
// Whether a step's quality-gate failure reason is about its results, not
// its speed: "max_rel_err 0.031 above tolerance 0.01" is, "slower than
// current best by 0.51%" is not (round 12: a speed gate read as a failed
// correctness check made "Correctness: PASS (max_abs_err ...)" an accuracy
// failure's cause).
bool gate_failed_on_results(std::string_view gate_failure);
// Whether a sentence reports a correctness check passing ("Correctness:
// PASS (max_abs_err 2.4e-04)", "passed within tolerance"): never an
// account of an accuracy failure.
bool reports_a_pass(std::string_view sentence);
// Words that say a lever changed nothing ("gained nothing", "no effect",
// "the same PTX"): a failure that the measurement bears out when the
// attempt moved inside the noise, where other failures need a slowdown.
const text::Regex &no_effect_regex();
// Speculative wording (may / might / possibly / perhaps, a question such as
// "(bank conflicts?)"): never a mechanism.
const text::Regex &speculative_regex();

inline constexpr std::size_t kMinMechanismChars = 40;
inline constexpr std::size_t kMinClaimChars = 12;

// What a trace always states about where its levers were tried. As in the
// real store's records (whose every anti-strategy names its DSL as
// `toolchain`), the run's toolchain and its fixed axes are conditions a
// reader can check; the GPU the run happened on is not.
struct FactContext {
  std::string toolchain; // the step's DSL ("triton", "cuda", "gluon"); "" or "any": none
  std::vector<std::pair<std::string, std::string>> fixed_axes; // ("N", "4096"), ("dtype", "bfloat16"), in trace order
  bool correctness_failed = false; // the step failed its correctness check (or its quality gate)
};
// A context from a DSL, a fixed-axes object (a packet's operator.fixed_axes,
// meta.json's constants: string and number values are kept) and whether
// the step failed its correctness check.
FactContext make_fact_context(std::string toolchain, const json::Value &fixed_axes, bool correctness_failed);

// The four fields of established_fact.condition.
struct FactCondition {
  std::string sm_arch, shape_regime, dtype, toolchain;
  bool empty() const { return sm_arch.empty() && shape_regime.empty() && dtype.empty() && toolchain.empty(); }
};
// The first architecture, shape-regime, dtype and toolchain token of the
// texts (verbatim, in order); a field the texts leave empty is filled from
// the context: toolchain = its DSL, shape_regime = its numeric fixed axes
// ("N=4096"), dtype = its dtype axis. Empty when neither names one.
FactCondition fact_condition(const std::vector<std::string> &texts, const FactContext &context);

// Whether `sentence` states why a lever fails: at least 40 code points, no
// hollow phrase, not speculative, and it names a cause (MECHANISM) - or,
// when the step failed its correctness check, it names that accuracy
// failure (an accuracy failure backed by the verdict is a fact).
bool states_mechanism(std::string_view sentence, const FactContext &context);

// partition.md §3: "ok" or the reason the text looks like no fact. The
// context supplies a condition (its toolchain and fixed axes) and, when the
// step failed its correctness check, lets an accuracy failure count as a
// cause.
std::string fact_precheck(std::string_view text, const FactContext &context = {});

// The record-level rule (gates.md §2.9 / wiki-gate.md §2 step 1): problems
// of an anti-strategy record; empty for a passing record or another type.
std::vector<std::string> established_fact_problems(const json::Value &record);

} // namespace otm::record
