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
      R"(bf16|fp16|fp8|fp6|fp4|fp32|fp64|tf32|int8|int4|e4m3|e5m2|)"
      R"(triton \d|cuda \d{2}|cutlass \d|ptx \d|driver \d|rocm \d|hip \d|)"
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
      R"(serializ\w*|contention|saturat\w*|spill\w*|occupancy|bank conflicts?|scoreboard\w*|m?barriers?|)"
      R"(bandwidth[- ]bound|latency[- ]bound|compute[- ]bound|wave quantization|tail effects?|partial waves?|)"
      R"(launch overhead|does not fit|exceeds?|exceeding|cannot|unsupported|not supported|requires?|requiring)\b)");
  return r;
}

std::string fact_precheck(std::string_view text) {
  auto t = text::strip(text);
  if (t.empty() || text::code_points(t) < kMinClaimChars) return "too short to carry a claim";
  bool mech = mechanism_regex().contains(text);
  if (non_mechanism_regex().contains(text) && !mech) return "reports a measurement, names no cause";
  if (!condition_regex().contains(text) && !mech) return "no checkable condition and no cause";
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
