#include "distill/anti_fact.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "distill/lever_prose.hpp"
#include "ladder/noise.hpp"
#include "levers/lever_settings.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"
#include "workspace/agent_facing.hpp"

namespace otm::distill {

record::FactContext fact_context(const json::Value &af) {
  const auto &m = af.get("measurements");
  auto gate = nonblank(workspace::WhatTheRunSaid::from_json(af).gate_verdict);
  bool failed =
      ladder::correctness_failed(m.get("correctness").get("status")) || (gate && record::gate_failed_on_results(*gate));
  const auto op = workspace::PacketOperator::from_json(af);
  return record::make_fact_context(op.dsl, op.fixed_axes, failed);
}

namespace {

// The source of a pitfall's explanation taken on its own.
constexpr const char *kPitfallExplanation = "pitfalls_recorded_here.explanation";

// A fix says what to do instead, not why or where the lever failed.
bool is_a_fix(const SourcedText &t) { return t.source.ends_with("fix") || t.source == "how_it_was_fixed"; }

// What the packet says of one failed lever: the lever without its cause,
// the figure it was measured at, the fix the run names, and every account
// of it a cause may come from, in the order they are read (the curated
// pitfall before the commit's prose).
struct FailureAccount {
  std::string attempted;
  std::optional<std::string> effect, fix;
  std::vector<SourcedText> evidence;
};

// A prose dead-end's account: only the pitfalls about the lever tried, at
// the setting tried (a step record carries pitfalls of other levers,
// copied forward from earlier steps, whose causes and fixes are not this
// failure's), then the commit's prose.
// The step's curated pitfalls about the lever tried, at the setting tried:
// each its claim and explanation as one account, and its fix.
void pitfalls_about_the_attempt(const json::Value &af, const levers::LeverVocabulary &vocabulary, FailureAccount &a) {
  auto mine = vocabulary.named_in(a.attempted);
  // The values the attempt set ("warp count 8→2": num_warps 2).
  std::map<std::string, std::set<std::string>> tried;
  for (const auto &t : levers::settings_in(vocabulary, levers::claim_of(a.attempted)))
    if (!t.value.empty()) tried[t.lever].insert(t.value);
  // ... at the setting tried: a pitfall that states only other values of a
  // lever the attempt set is about another setting (round 10: "16 warps
  // slowed the tiny shape" as the cause of an attempt at 2 warps).
  auto about_this_lever = [&](const json::Value &p) {
    std::string text;
    for (const char *k : {"pitfall", "explanation"})
      if (auto t = nonblank(p.get(k))) text += *t + " ";
    bool shared = false, same_value = false, other_value = false;
    // A pitfall of this step that names no lever at all is about the one
    // lever the step tried (stop 44: "the tanh form deviates from erf GELU
    // by up to 3e-3 near |x|~2", recorded on the GELU_TANH attempt).
    auto named = vocabulary.named_in(text);
    if (named.empty()) shared = true;
    for (const auto &l : named)
      if (std::find(mine.begin(), mine.end(), l) != mine.end()) shared = true;
    for (const auto &st : levers::settings_in(vocabulary, text)) {
      auto t = tried.find(st.lever);
      if (st.value.empty() || t == tried.end()) continue;
      (t->second.count(st.value) ? same_value : other_value) = true;
    }
    return shared && (same_value || !other_value);
  };
  if (const auto *pitfalls = af.get("pitfalls_recorded_here").as_array())
    for (const auto &p : *pitfalls) {
      if (!about_this_lever(p)) continue;
      // The explanation alone first: the claim beside it is often the
      // measurement ("max_abs_err 3.1e-03 > atol 1e-03"), which would win
      // as the sentence naming the accuracy failure most fully (stop 44).
      if (auto e = nonblank(p.get("explanation"))) a.evidence.push_back({*e, kPitfallExplanation});
      // The claim and its explanation are one account.
      std::string account;
      for (const char *k : {"pitfall", "explanation"})
        if (auto t = nonblank(p.get(k))) {
          if (!account.empty()) account += account.ends_with(".") ? " " : ". ";
          account += *t;
        }
      if (!account.empty()) a.evidence.push_back({account, "pitfalls_recorded_here"});
      if (auto t = nonblank(p.get("fix"))) {
        a.evidence.push_back({*t, "pitfalls_recorded_here.fix"});
        if (!a.fix) a.fix = t;
      }
    }
}

void prose_dead_end_account(const json::Value &af, const workspace::WhatTheRunSaid &said,
                            const levers::LeverVocabulary &vocabulary, FailureAccount &a) {
  if (auto subject = nonblank(said.commit_subject)) a.effect = stated_effect(*subject);
  pitfalls_about_the_attempt(af, vocabulary, a);
  if (auto t = nonblank(said.commit_subject))
    a.evidence.push_back({without_revert_marker(*t), "what_the_run_said.commit_subject"});
  if (auto t = nonblank(said.commit_body)) a.evidence.push_back({*t, "what_the_run_said.commit_body"});
  if (auto t = nonblank(said.gate_verdict)) a.evidence.push_back({*t, "what_the_run_said.gate_verdict"});
}

// Source by source, in order: a sentence that names a cause; else, for a
// step that failed its correctness check, the one naming its accuracy
// failure most fully ("rounded before exp2 … 2 ulp … a 1e-6 tolerance"
// over "not bit-compatible"), earliest on ties. A fix says what to do
// instead, not why this failed (round 10: "Pipeline explicitly (async
// copies + barriers)" as the cause of a num_stages attempt Gluon ignores).
// What the run hoped the lever would do (its expected impact, the reason
// its change text gives after the lever) is never why it failed (round 16:
// "Rationale: Improve memory coalescing and occupancy ...", the template of
// 63 steps, as the cause of a slower evict_first).
std::optional<SourcedText> first_stated_cause(const FailureAccount &a, const record::FactContext &context,
                                              const std::vector<std::string> &hopes) {
  std::set<std::string> hoped;
  for (const auto &h : hopes)
    for (const auto &s : text::sentences(h)) hoped.insert(text::folded(without_reason_label(s)));
  for (const auto &t : a.evidence) {
    if (is_a_fix(t)) continue;
    std::optional<SourcedText> accuracy;
    std::size_t best_accuracy = 0;
    for (auto s : text::sentences(t.text)) {
      if (hoped.count(text::folded(without_reason_label(s)))) continue;
      // The run's explanation of the accuracy failure its step's check
      // saw ("16k squares summed in bf16 lose their low-order terms") is
      // its cause, in whatever words.
      if (t.source == kPitfallExplanation) {
        if (context.correctness_failed && explains(s, a.attempted)) return SourcedText{s, "pitfalls_recorded_here"};
        continue; // otherwise read with its claim, in the account that follows
      }
      // A guess the run put in a label after the reason is not the reason.
      if (!record::states_mechanism(s, context))
        if (auto bare = without_trailing_labels(s); record::states_mechanism(bare, context)) s = bare;
      if (!record::states_mechanism(s, context) || !says_more_than(s, a.attempted, context)) continue;
      if (record::mechanism_regex().contains(s)) return SourcedText{s, t.source};
      if (record::reports_a_pass(s)) continue;
      std::size_t n = record::accuracy_failure_regex().find_all(s).size();
      if (n > best_accuracy) best_accuracy = n, accuracy = SourcedText{s, t.source};
    }
    if (accuracy) return accuracy;
  }
  return std::nullopt;
}

// The error a failed build or launch quoted when it names an on-chip
// resource over its limit: the step's gate verdict, else a curated
// pitfall's claim or the lever's own account. Such an error is the observed
// cause; prose that names another (or none) is the run's guess (kit 47,
// T05).
std::optional<SourcedText> resource_error_quoted(const workspace::WhatTheRunSaid &said, const FailureAccount &a) {
  static const text::Regex over(R"((?i)\b(?:exceed\w*|limit|out of|too many|overflow\w*|insufficient)\b)");
  auto quotes_one = [](std::string_view t) { return record::resource_named(t) && over.contains(t); };
  if (auto gate = nonblank(said.gate_verdict); gate && quotes_one(*gate))
    return SourcedText{*gate, "what_the_run_said.gate_verdict"};
  for (const auto &t : a.evidence)
    if ((t.source == "pitfalls_recorded_here" || t.source == "the_failed_lever") && quotes_one(t.text))
      for (const auto &s : text::sentences(t.text))
        if (quotes_one(s)) return SourcedText{std::string(text::strip(s)), t.source};
  return std::nullopt;
}

} // namespace

AntiFactResult anti_fact(const json::Value &af, const levers::LeverVocabulary &vocabulary) {
  static const text::Regex api(R"((?i)\b(?:unsupported|not supported|does not support|doesn't support|)"
                               R"(cannot express|can't express|not expressible)\b)");
  AntiFactResult r;
  auto context = fact_context(af);
  const auto said = workspace::WhatTheRunSaid::from_json(af);
  FailureAccount a;
  std::vector<std::string> hopes;
  if (auto lever = nonblank(af.get("the_failed_lever"))) {
    a.attempted = lever_without_its_cause(*lever, vocabulary);
    a.effect = stated_effect(*lever);
    // The step's own pitfall about this lever first, as for a prose
    // dead-end (round 13: "K=8192+ dot products in fp16 drift well beyond
    // atol" left out for the item's "fails accuracy (max_abs_err 2.4)").
    pitfalls_about_the_attempt(af, vocabulary, a);
    a.evidence.push_back({*lever, "the_failed_lever"});
    if ((a.fix = nonblank(af.get("how_it_was_fixed")))) a.evidence.push_back({*a.fix, "how_it_was_fixed"});
  } else {
    auto change = nonblank(said.change);
    auto one = change ? the_one_lever(*change) : std::nullopt;
    if (!one) {
      r.gap = FactGap{"payload.attempted",
                      "the prose dead-end names several levers (or none) and the packet isolates none: choosing one "
                      "is a judgement the extractive drafter does not make"};
      return r;
    }
    // The lever, without a "(reverted: ...)" bracket or a cause clause.
    a.attempted = lever_without_its_cause(one->lever, vocabulary);
    hopes = one->hopes;
    prose_dead_end_account(af, said, vocabulary, a);
  }
  if (auto impact = nonblank(said.expected_impact)) hopes.push_back(*impact);
  auto mechanism = first_stated_cause(a, context, hopes);
  std::string all;
  for (const auto &t : a.evidence) all += t.text + "\n";
  const bool did_not_build =
      record::build_failure_regex().contains(all) ||
      record::build_failure_regex().contains(workspace::AttemptAccount::from_json(af).correctness_status);
  if (did_not_build)
    if (auto error = resource_error_quoted(said, a);
        error && (!mechanism || record::resource_named(mechanism->text) != record::resource_named(error->text)))
      mechanism = std::move(error);
  if (!mechanism) {
    r.gap = FactGap{"payload.established_fact.mechanism",
                    "no sentence of the packet's account of the failure states a cause of at least 40 characters "
                    "that is not a measurement or a speculation"};
    return r;
  }
  mechanism->text = the_reason_alone(mechanism->text, a.attempted, context);
  // Where the lever failed: the attempt first (the dtype it set), never a
  // fix or advice ("keep fp32 where errors accumulate" names the dtype to
  // use instead; kit 50, W01: fp32 as the condition of a bf16-accumulation
  // failure on a bf16 workload).
  std::vector<std::string> texts{a.attempted};
  for (const auto &t : a.evidence)
    if (!is_a_fix(t))
      for (const auto &s : text::sentences(t.text))
        if (!is_advice(s)) texts.emplace_back(s);
  auto c = record::fact_condition(texts, context);
  if (c.empty()) {
    r.gap = FactGap{"payload.established_fact.condition",
                    "neither the failure's text nor the packet's toolchain and fixed axes name an architecture, "
                    "shape regime, dtype or toolchain"};
    return r;
  }
  std::string verdict = "not-worth-it-here";
  if (api.contains(all) || did_not_build)
    verdict = "api-limitation";
  else if ((context.correctness_failed && record::accuracy_failure_regex().contains(all)) ||
           record::accuracy_failure_regex().contains(mechanism->text) || record::wrong_results_regex().contains(all))
    verdict = "accuracy-gate/ceiling";
  r.fact = AntiFact{a.attempted, c, *mechanism, verdict, did_not_build, a.fix, a.effect};
  return r;
}

} // namespace otm::distill
