#include "distill/mechanism_source.hpp"

#include "distill/lever_prose.hpp"
#include "record/established_fact.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"
#include "workspace/agent_facing.hpp"

namespace otm::distill {

namespace {

// The prose of a report conclusion: its markdown table rows ("| dram
// throughput (%) | 93.0 |") and heading marks dropped, cut before a "Next"
// section (a direction for later work, not why this change worked), lines
// joined by single spaces.
std::optional<std::string> conclusion_prose(const std::string &report) {
  static const text::Regex next(R"((?im)(?:^|\s)#+\s*next\b|^\s*next\s*(?:steps?)?\s*:)");
  static const text::Regex table(R"(\|[^\n]*\|)");
  static const text::Regex heading(R"((?m)^\s*#+\s*)");
  std::string body = report;
  if (auto m = next.search(body)) body.resize(m->begin);
  body = heading.replace(table.replace(body, " "), "");
  std::string out;
  for (const auto &s : text::sentences(body)) {
    auto t = text::strip(s);
    if (t.empty()) continue;
    if (!out.empty()) out += ' ';
    out.append(t);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// "MIN_BLOCKS 1 -> 2 so the compiler caps the registers per SM": a
// mechanism quoted from the change itself is its clause after "so" (or
// "because", ...), so the record does not say the lever twice. nullopt when
// there is no such clause or it is shorter than `min_chars`: the change
// restated is no cause (round 14: "Split the KV sequence 16 ways; each
// program writes a partial output + LSE and a reduce kernel merges them",
// causal by the noun "reduce", served as its own mechanism).
std::optional<std::string> the_cause_it_gives(const std::string &sentence, std::size_t min_chars) {
  // "residual-add fusion into the kernel — the intermediate stays in
  // registers": a dash opens the clause giving the reason too.
  static const text::Regex clause(std::string(R"((?i)(?:[\s,;]+(?:so that|so|)") + kCauseConnective +
                                  R"()|\s+[\x{2014}\x{2013}]|\s+--?)\s+(\S.*)$)");
  // Only a clause of the sentence itself opens the cause: "exp(m_old -
  // m_new)" holds no dash (round 14 served "m_new), a second sweep writes
  // the output" as a mechanism).
  auto depth_at = [&](std::size_t end) {
    int depth = 0;
    for (std::size_t i = 0; i < end; ++i) {
      if (sentence[i] == '(' || sentence[i] == '[' || sentence[i] == '{') ++depth;
      if ((sentence[i] == ')' || sentence[i] == ']' || sentence[i] == '}') && depth > 0) --depth;
    }
    return depth;
  };
  auto m = clause.search(sentence);
  while (m && depth_at(m->begin) > 0) m = clause.search(sentence, m->begin + 1);
  if (!m || !m->has(1)) return std::nullopt;
  std::string cause(text::rstrip_chars((*m)[1], " ."));
  // "Two warpgroups split the 128-wide tile so each issues half the MMAs":
  // what follows "so" is the effect, and one that opens with a word
  // pointing back ("each", "it", "they") says nothing alone (kit 24: "each
  // issues half the MMAs" as a mechanism). The whole sentence is the cause.
  static const text::Regex so(R"((?i)^[\s,;]*so(?: that)?\s)");
  // A pronoun, or "each" with a verb ("each issues"; "each program covers"
  // names what it means).
  static const text::Regex pointing_back(R"((?i)^(?:it|they|them|which)\b|^each\s+\w+(?<![sui])s\b)");
  // Not when the sentence is the change itself ("Moved the rescale into
  // the loop so it fuses": what the pronoun points back to is the change).
  static const text::Regex the_change(
      R"((?i)^\W*(?:mov|chang|switch|enabl|disabl|rais|lower|cap|increas|decreas|reduc|add|remov|drop|replac|fus|set|us)\w*\b)");
  if (so.contains((*m)[0]) && pointing_back.contains(cause) && !the_change.contains(sentence))
    cause = text::rstrip_chars(text::strip(sentence), " .");
  if (text::code_points(cause) < min_chars) return std::nullopt;
  return cause;
}

} // namespace

std::optional<SourcedText> strategy_mechanism(const json::Value &af, const record::CausalRule &causal,
                                              const TemplateTest &is_template) {
  // A template the run filled with a missing value ("None tokens per
  // program double ...", "null rows") is no reason of this step's.
  static const text::Regex unfilled(R"(\b(?:None(?!\s+of\b)|null|undefined|NaN)\b)");
  auto own = [&](std::string text, const char *source) -> std::optional<SourcedText> {
    text = without_reason_label(text);
    if (unfilled.contains(text)) return std::nullopt;
    if (is_template && is_template(source, text)) return std::nullopt;
    return SourcedText{std::move(text), source};
  };
  const auto said = workspace::WhatTheRunSaid::from_json(af);
  std::optional<SourcedText> label; // an expected impact that only labels the step
  // A sentence of the change text is the change, however causal its words
  // ("... and broadcast, instead of gathering them per element"): it is the
  // last source (5.), where only the cause it gives is taken (round 13: a
  // change sentence served word for word as its own mechanism, with the
  // run's "Cuts scale traffic from DRAM by 128x." next in line).
  const auto change_text = nonblank(said.change);
  auto is_the_change = [&](const std::string &sentence) {
    const std::string unlabelled = without_reason_label(sentence);
    const auto core = text::strip(unlabelled);
    return change_text && !core.empty() && change_text->find(core) != std::string::npos;
  };
  for (const auto &s : said.causal_sentences)
    if (auto t = nonblank(s); t && !is_the_change(*t))
      if (auto m = own(*t, "what_the_run_said.causal_sentences")) return m;
  // A forecast is no cause: "Expect roughly 6-10% lower latency, mainly on
  // M=32,N=14336" (stop 44: the mechanism of 16 of 41 strategies, naming
  // shapes that gained least) states a figure and no reason; such
  // sentences of the expected impact are left out.
  if (auto t = nonblank(said.expected_impact)) {
    static const text::Regex figure(R"((?i)\d\s*%|\b\d+(?:\.\d+)?\s*x\b)");
    std::string reasons;
    for (const auto &sentence : text::sentences(*t))
      if (!figure.contains(sentence) || causal.is_causal(sentence))
        reasons += (reasons.empty() ? "" : " ") + std::string(text::strip(sentence));
    // A label shorter than a mechanism ("Per-shape config
    // selection.", "Cheaper reduction.": kits 50-53, W07, X07, Y04, Z03,
    // the run's template for the step's category) is taken only when no
    // later source gives a reason.
    if (!reasons.empty()) {
      if (text::code_points(reasons) < record::kMinMechanismChars && !causal.is_causal(reasons))
        label = own(reasons, "what_the_run_said.expected_impact");
      else if (auto m = own(reasons, "what_the_run_said.expected_impact"))
        return m;
    }
  }
  // A report conclusion speaks for the kernel under test only when its
  // capture measured it; otherwise it may describe another kernel.
  const auto &prof = af.get("profiler");
  const auto *measured = prof.get("conclusion_is_from_the_kernel_under_test").as_bool();
  // Only its causal sentences: the rest of a capture's summary describes
  // the kernel's state (throughput, occupancy), not why the change helped.
  if (measured && *measured)
    if (auto t = nonblank(prof.get("conclusion")))
      if (auto body = conclusion_prose(*t))
        for (const auto &s : causal.causal_sentences(*body))
          if (auto m = own(s, "profiler.conclusion")) return m;
  // A rationale shorter than a causal sentence is a label ("Occupancy
  // tuning."), no cause: round 13 served one as the mechanism of wider
  // K/V loads, from a direction ("THREADS=128") the step shared only
  // words with.
  for (const auto &d : said.directions_taken_up)
    if (auto t = nonblank(d.rationale); t && text::code_points(*t) >= causal.min_chars())
      if (auto m = own(*t, "what_the_run_said.directions_taken_up")) return m;
  if (const auto &change = change_text)
    for (const auto &s : causal.causal_sentences(*change))
      if (auto cause = the_cause_it_gives(s, causal.min_chars()))
        if (auto m = own(*cause, "what_the_run_said.change")) return m;
  return label;
}

} // namespace otm::distill
