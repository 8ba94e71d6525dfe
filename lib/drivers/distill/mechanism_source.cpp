#include "distill/mechanism_source.hpp"

#include "record/established_fact.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

namespace {

std::optional<std::string> nonblank(const json::Value &v) {
  const auto *s = v.as_string();
  if (!s || text::strip(*s).empty()) return std::nullopt;
  return std::string(text::strip(*s));
}

// The alternatives of the shared CONDITION regex, sorted into the four
// fields of established_fact.condition. Tokens of its prose alternatives
// ("when …", "only if …") fit no field and are not used.
const text::Regex &arch_token() {
  static const text::Regex r(R"((?i)^(?:sm_?\d{2,3}[a-z]?|gb?[12]\d{2}|[abh]\d{2,3}|rtx ?\d{4}|mi\d{3}x?|cdna\d|)"
                             R"(rdna\d|gfx\d{3,4}|blackwell|hopper|ampere)$)");
  return r;
}
const text::Regex &dtype_token() {
  static const text::Regex r(R"((?i)^(?:bf16|fp16|fp8|fp6|fp4|fp32|fp64|tf32|int8|int4|e4m3|e5m2)$)");
  return r;
}
const text::Regex &toolchain_token() {
  static const text::Regex r(R"((?i)^(?:triton|cuda|cutlass|ptx|driver|rocm|hip) \d+$)");
  return r;
}
const text::Regex &shape_token() {
  static const text::Regex r(R"((?i)^(?:[MNK]\s*(?:<=|>=|[=<>≤≥])\s*\d+|(?:small|large|tiny)-[mnk])$)");
  return r;
}

const text::Regex &speculative() {
  static const text::Regex r(R"((?i)\b(?:may|might|possibly|perhaps)\b)");
  return r;
}

} // namespace

std::optional<SourcedText> strategy_mechanism(const json::Value &af) {
  if (auto t = nonblank(af.get("what_the_run_said").get("expected_impact")))
    return SourcedText{*t, "what_the_run_said.expected_impact"};
  // A report conclusion speaks for the kernel under test only when its
  // capture measured it; otherwise it may describe another kernel.
  const auto &prof = af.get("profiler");
  const auto *measured = prof.get("conclusion_is_from_the_kernel_under_test").as_bool();
  if (measured && *measured)
    if (auto t = nonblank(prof.get("conclusion"))) return SourcedText{*t, "profiler.conclusion"};
  return std::nullopt;
}

bool is_causal_mechanism(const std::string &s) {
  return text::code_points(text::strip(s)) >= record::kMinMechanismChars && record::mechanism_regex().contains(s) &&
         !record::non_mechanism_regex().contains(s) && !speculative().contains(s);
}

Condition find_condition(const std::vector<SourcedText> &texts) {
  Condition c;
  for (const auto &t : texts) {
    for (const auto &m : record::condition_regex().find_all(t.text)) {
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
  return c;
}

std::vector<SourcedText> anti_evidence(const json::Value &af) {
  std::vector<SourcedText> out;
  if (auto t = nonblank(af.get("the_failed_lever"))) out.push_back({*t, "the_failed_lever"});
  if (auto t = nonblank(af.get("how_it_was_fixed"))) out.push_back({*t, "how_it_was_fixed"});
  return out;
}

AntiFactResult anti_fact(const json::Value &af) {
  static const text::Regex api(R"((?i)\b(?:unsupported|not supported|does not support|doesn't support|)"
                               R"(cannot express|can't express|not expressible)\b)");
  static const text::Regex accuracy(R"((?i)\b(?:accuracy|tolerance|precision|correctness|mismatch\w*|incorrect|)"
                                    R"(wrong results?|nan|numerical\w*|max_abs_err|max_rel_err)\b)");
  AntiFactResult r;
  auto evidence = anti_evidence(af);
  if (evidence.empty() || evidence.front().source != "the_failed_lever") {
    r.gap = FactGap{"payload.attempted",
                    "the packet isolates no failed lever (prose dead-end: choosing one lever among several is a "
                    "judgement the extractive drafter does not make)"};
    return r;
  }
  std::optional<SourcedText> mechanism;
  for (const auto &t : evidence) {
    for (const auto &s : text::sentences(t.text))
      if (!mechanism && is_causal_mechanism(s)) mechanism = SourcedText{s, t.source};
  }
  for (const auto &t : evidence)
    if (!mechanism && is_causal_mechanism(t.text)) mechanism = t;
  if (!mechanism) {
    r.gap = FactGap{"payload.established_fact.mechanism",
                    "no sentence of the failed lever or its fix states a cause of at least 40 characters that is "
                    "not a measurement or a speculation"};
    return r;
  }
  auto condition_texts = evidence;
  Condition c = find_condition(condition_texts);
  if (c.empty()) {
    r.gap = FactGap{"payload.established_fact.condition",
                    "the failed lever and its fix name no architecture, shape regime, dtype or toolchain"};
    return r;
  }
  std::string all;
  for (const auto &t : evidence) all += t.text + "\n";
  std::string verdict = "not-worth-it-here";
  if (api.contains(all))
    verdict = "api-limitation";
  else if (accuracy.contains(all) || af.get("what_the_run_said").get("gate_verdict").truthy())
    verdict = "accuracy-gate/ceiling";
  r.fact = AntiFact{c, *mechanism, verdict};
  return r;
}

} // namespace otm::distill
