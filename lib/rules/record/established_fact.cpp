#include "record/established_fact.hpp"

#include "text/utf8.hpp"

namespace otm::record {

// The reference's regexes end in a bare \b, which silently turns its stems
// (serializ, saturat) into whole words, rejects plurals and makes
// `when [a-z]` match only one-letter words; otm states the intent directly
// (docs/differences.md, "Partition").
const text::Regex &condition_regex() {
  static const text::Regex r(
      R"((?i)\b(?:sm_?\d{2,3}[a-z]?|gb?[12]\d{2}|[abh]\d{2,3}|rtx ?\d{4}|mi\d{3}x?|cdna\d|rdna\d|gfx\d{3,4}|)"
      R"(blackwell|hopper|ampere|[MNK]\s*(?:<=|>=|[=<>≤≥])\s*\d+|(?:small|large|tiny)-[mnk]|)"
      R"(bf16|fp16|fp8|fp6|fp4|fp32|fp64|tf32|int8|int4|e4m3|e5m2|bfloat16|float16|float32|)"
      R"((?:triton|gluon|cutlass|cutedsl|flydsl|cuda|rocm|hip)(?: \d+)?|ptx \d|driver \d|)"
      R"(when [a-z]+|only (?:if|when|on)|for (?:all )?shapes? (?:with|where|below|above))\b)");
  return r;
}

const text::Regex &non_mechanism_regex() {
  // One list: the audit tool's and the admission gate's, united.
  static const text::Regex r(
      R"((?i)(no improvement (?:found|over)|flat[- ]within[- ]noise|within noise|)"
      R"(all (?:\w+\s+){0,3}(?:approaches|trials|variants|attempts) (?:tested|were|failed|flat)|)"
      R"(tested \d+ approaches|reverted to an earlier|hw floor (?:confirmed|reconfirmed)|no kernel change|)"
      R"(sanity[_ ]bench|stall[_ ]count|consecutive (?:dead-end|stall|revert)))");
  return r;
}

const text::Regex &mechanism_regex() {
  static const text::Regex r(
      R"((?i)\b(?:because|since|due to|caused by|the reason|as a result of|bound by|limited by|gated by|)"
      R"(seriali[sz]\w*|contention|saturat\w*|spill\w*|occupancy|bank conflicts?|scoreboard\w*|m?barriers?|)"
      R"(bandwidth[- ]bound|latency[- ]bound|compute[- ]bound|wave quanti[sz]ation|tail effects?|partial waves?|)"
      R"(launch overhead|does not fit|exceeds?|exceeding|cannot|unsupported|not supported|requires?|requiring|)"
      R"(costs? more than|outweighs?|)"
      // A toolchain that ignores the knob the change turned.
      R"(ignored|ignores|(?:is|are) not used|(?:does not|doesn't|never) runs?|)"
      // A compiler that already does what the change does by hand.
      R"((?:already|compiler) (?:lowers?|emits?|generates?|compiles?)|compiles? to the same)\b)");
  return r;
}

namespace {
// Words that say results came out wrong, whatever the tolerance.
constexpr std::string_view kWrongResults =
    R"(mismatch\w*|incorrect|wrong (?:results?|outputs?|values?)|nans?|overflow(?:s|ed|ing)?|out[- ]of[- ]bounds|)"
    R"(illegal (?:memory )?access|race conditions?|corrupt\w*)";
} // namespace

const text::Regex &accuracy_failure_regex() {
  static const text::Regex r(std::string(R"((?i)\b(?:accuracy|tolerance|precision|correctness|numerical\w*|)"
                                         R"(max_abs_err|max_rel_err|rel_err|atol|rtol|drift(?:s|ed|ing)?|ulps?|)"
                                         R"(rounding|round-off|bit-compatible|)"
                                         R"(bit-exact|)") +
                             std::string(kWrongResults) + R"()\b)");
  return r;
}

bool gate_failed_on_results(std::string_view gate_failure) {
  return accuracy_failure_regex().contains(gate_failure) || wrong_results_regex().contains(gate_failure);
}

bool reports_a_pass(std::string_view sentence) {
  static const text::Regex pass(
      R"((?i)\b(?:correctness|accuracy|check|status)\b\W{0,3}(?:PASS(?:ED)?|OK)\b|)"
      R"(\bpass(?:ed|es)?\b(?:\s+\S+){0,3}\s+(?:tolerance|check)|\bwithin (?:the )?tolerance\b)");
  return pass.contains(sentence);
}

const text::Regex &no_effect_regex() {
  static const text::Regex r(
      R"((?i)\b(?:gains?\s+nothing|gained\s+nothing|no\s+(?:measurable\s+)?(?:effect|gain|speed-?up|)"
      R"(improvement|difference)|(?:no|not)\s+faster|(?:the\s+)?same\s+(?:PTX|SASS|code|instructions)|)"
      R"(identical\s+(?:PTX|SASS|code)|flat\s+within\s+(?:the\s+)?noise)\b)");
  return r;
}

const text::Regex &wrong_results_regex() {
  static const text::Regex r(R"((?i)\b(?:)" + std::string(kWrongResults) + R"()\b)");
  return r;
}

const text::Regex &build_failure_regex() {
  static const text::Regex r(
      R"((?i)\b(?:compil(?:ation|e)[ _-]?(?:errors?|fail\w*)|\w*CompilationError|(?:failed|fails) to (?:compile|build)|)"
      R"((?:does|did)(?: not|n't) (?:compile|build)|build failed|ptxas (?:error|fatal)|)"
      R"(too many resources requested|out of resources|OutOfResources\w*|)"
      R"((?:register|shared[- ]memory|smem) (?:budget|limit) (?:exceeded|overflow\w*)|)"
      R"(exceeds? the \d+-register limit)\b)");
  return r;
}

std::optional<std::string_view> resource_named(std::string_view text) {
  static const struct {
    std::string_view resource;
    text::Regex words;
  } resources[] = {
      {"shared memory", text::Regex(R"((?i)shared[ _-]?mem|\bsmem\b|\blds\b|\blocal data share\b)")},
      {"registers", text::Regex(R"((?i)\bregisters?\b|\bregs\b|too many resources requested|\bvgprs?\b|\bsgprs?\b)")},
      {"threads per block", text::Regex(R"((?i)too many threads|threads per block|maxThreadsPerBlock|launch_bounds)")},
  };
  for (const auto &r : resources)
    if (r.words.contains(text)) return r.resource;
  return std::nullopt;
}

const text::Regex &timeout_regex() {
  static const text::Regex r(R"((?i)\b(?:time[ _-]?outs?(?:_fail)?|timed out|hung|hangs?|deadlock\w*|)"
                             R"(exceeded (?:the )?(?:time budget|\d+ ?s\b)))");
  return r;
}

const text::Regex &launch_failure_regex() {
  static const text::Regex r(R"((?i)\bCUDA error\b|\bcuda(?:FuncSetAttribute|LaunchKernel|ErrorLaunch\w*)\b|)"
                             R"(\bhipError\w+|\blaunch (?:failed|failure)\b|invalid configuration argument)");
  return r;
}

const text::Regex &speculative_regex() {
  // A question is a guess too: "(bank conflicts?)", "register spills?"
  // (round 14: labels a run attaches to its slow attempts at random); so is
  // a plan: "Next: try split-V (few rows cannot fill the GPU)" (stop 44).
  static const text::Regex r(R"((?i)\b(?:may|might|possibly|perhaps)\b|[A-Za-z]\?|)"
                             R"(^\W*(?:next(?: step)?|to ?do|plan)\s*:)");
  return r;
}

namespace {

// The alternatives of condition_regex, sorted into the four fields of
// established_fact.condition. Its prose alternatives ("when …", "only if
// …") fit no field.
const text::Regex &arch_token() {
  static const text::Regex r(R"((?i)^(?:sm_?\d{2,3}[a-z]?|gb?[12]\d{2}|[abh]\d{2,3}|rtx ?\d{4}|mi\d{3}x?|cdna\d|)"
                             R"(rdna\d|gfx\d{3,4}|blackwell|hopper|ampere)$)");
  return r;
}
const text::Regex &dtype_token() {
  static const text::Regex r(
      R"((?i)^(?:bf16|fp16|fp8|fp6|fp4|fp32|fp64|tf32|int8|int4|e4m3|e5m2|bfloat16|float16|float32|float8\w*)$)");
  return r;
}
const text::Regex &toolchain_token() {
  static const text::Regex r(
      R"((?i)^(?:(?:triton|gluon|cutlass|cutedsl|flydsl|cuda|rocm|hip)(?: \d+)?|(?:ptx|driver) \d+)$)");
  return r;
}
const text::Regex &shape_token() {
  static const text::Regex r(R"((?i)^(?:[MNK]\s*(?:<=|>=|[=<>≤≥])\s*\d+|(?:small|large|tiny)-[mnk])$)");
  return r;
}

} // namespace

FactContext make_fact_context(std::string toolchain, const json::Value &fixed_axes, bool correctness_failed) {
  FactContext c;
  c.toolchain = std::move(toolchain);
  if (const auto *axes = fixed_axes.as_object())
    for (const auto &[k, v] : *axes) {
      if (v.is_string())
        c.fixed_axes.emplace_back(k, *v.as_string());
      else if (v.is_number() && !v.is_bool())
        c.fixed_axes.emplace_back(k, v.python_str());
    }
  c.correctness_failed = correctness_failed;
  return c;
}

FactCondition fact_condition(const std::vector<std::string> &texts, const FactContext &context) {
  // A row of per-shape measurements ("Per-shape: M=256,N=4096 3.10->3.21us;
  // ...") names the shapes measured, not the one the failure needs (stop
  // 44: "M=256" as the condition of a tanh GELU that fails on every shape).
  static const text::Regex measured_row(
      R"((?i)(?:\bper[- ]shape\s*:\s*)?(?:\b[A-Za-z_]\w*\s*=\s*-?\d+(?:\.\d+)?[,\s]*)+)"
      R"(\d+(?:\.\d+)?\s*(?:us|\x{00b5}s|ms)?\s*(?:->|\x{2192}|=>)\s*\d+(?:\.\d+)?\s*(?:us|\x{00b5}s|ms)?)");
  FactCondition c;
  for (const auto &given : texts) {
    const std::string t = measured_row.replace(given, " ");
    for (const auto &m : condition_regex().find_all(t)) {
      std::string tok(m[0]);
      if (c.sm_arch.empty() && arch_token().match(tok))
        c.sm_arch = tok;
      else if (c.dtype.empty() && dtype_token().match(tok))
        c.dtype = tok;
      else if (c.toolchain.empty() && toolchain_token().match(tok))
        c.toolchain = tok;
      else if (c.shape_regime.empty() && shape_token().match(tok))
        c.shape_regime = tok;
    }
  }
  std::string tool = context.toolchain;
  if (c.toolchain.empty() && !tool.empty() && text::to_lower(tool) != "any") c.toolchain = tool;
  // Gluon compiles through Triton, whose name its errors carry
  // ("triton.compiler.errors.CompilationError"): the toolchain is still
  // Gluon (round 18: "triton" as the condition of a Gluon kernel's failure).
  if (text::to_lower(c.toolchain) == "triton" && text::to_lower(tool) == "gluon") c.toolchain = tool;
  // The operator's fixed axes hold for every shape the run measured, so
  // they decide no outcome (issue 25: "every condition is the fixed axes");
  // only its dtype, which an accuracy failure turns on, is taken.
  for (const auto &[k, v] : context.fixed_axes)
    if (c.dtype.empty() && (text::to_lower(k) == "dtype" || dtype_token().match(v))) c.dtype = v;
  return c;
}

bool states_mechanism(std::string_view sentence, const FactContext &context) {
  auto s = text::strip(sentence);
  if (text::code_points(s) < kMinMechanismChars) return false;
  if (non_mechanism_regex().contains(s) || speculative_regex().contains(s)) return false;
  return mechanism_regex().contains(s) || (context.correctness_failed && accuracy_failure_regex().contains(s));
}

std::string fact_precheck(std::string_view text, const FactContext &context) {
  auto t = text::strip(text);
  if (t.empty() || text::code_points(t) < kMinClaimChars) return "too short to carry a claim";
  bool mech =
      mechanism_regex().contains(text) || (context.correctness_failed && accuracy_failure_regex().contains(text));
  if (non_mechanism_regex().contains(text) && !mech) return "reports a measurement, names no cause";
  bool condition = condition_regex().contains(text) || !fact_condition({}, context).empty();
  if (!condition && !mech) return "no checkable condition and no cause";
  return "ok";
}

std::vector<std::string> established_fact_problems(const json::Value &record) {
  std::vector<std::string> problems;
  if (record.string_or("type") != "anti-strategy") return problems;
  const auto &payload = record.get("payload");
  std::string verdict = payload.string_or("verdict");
  if (verdict == "unknown" || verdict == "unstable")
    problems.push_back("verdict '" + verdict + "' does not conclude (needs a checkable condition and a mechanism)");
  const auto &fact = payload.get("established_fact");
  if (!fact.is_object()) {
    problems.push_back("payload.established_fact is missing: an anti-strategy needs a checkable condition and a "
                       "causal mechanism");
    return problems;
  }
  bool has_condition = false;
  for (const char *key : {"sm_arch", "shape_regime", "dtype", "toolchain"}) {
    const auto *s = fact.get("condition").get(key).as_string();
    if (s && !text::strip(*s).empty()) has_condition = true;
  }
  if (!has_condition)
    problems.push_back("established_fact.condition names no sm_arch, shape_regime, dtype or toolchain");
  std::string mechanism(text::strip(fact.string_or("mechanism")));
  if (text::code_points(mechanism) < kMinMechanismChars) {
    problems.push_back("established_fact.mechanism is shorter than 40 characters");
  } else if (auto m = non_mechanism_regex().search(mechanism)) {
    problems.push_back("established_fact.mechanism is not a cause: '" + std::string((*m)[0]) + "'");
  }
  return problems;
}

} // namespace otm::record
