#include "distill/mechanism_source.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "ladder/noise.hpp"
#include "levers/lever_settings.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"
#include "workspace/agent_facing.hpp"

namespace otm::distill {

namespace {

std::optional<std::string> nonblank(const std::string &s) {
  if (text::strip(s).empty()) return std::nullopt;
  return std::string(text::strip(s));
}

std::optional<std::string> nonblank(const json::Value &v) {
  const auto *s = v.as_string();
  if (!s) return std::nullopt;
  return nonblank(*s);
}

// The source of a pitfall's explanation taken on its own.
constexpr const char *kPitfallExplanation = "pitfalls_recorded_here.explanation";

// A figure in brackets: "(+4.0%)", "(-3 %)", "(4.1% slower)"; group 1 is
// what the brackets hold.
constexpr const char *kBracketedFigure = R"(\(([^()]*\d(?:\.\d+)?\s*%[^()]*)\))";

} // namespace

// "X gains nothing because the rows are already coalesced (+4.0%)": what was
// attempted is the lever alone — the part before the clause giving the cause,
// then before the predicate judging it ("gains nothing", "is slower",
// "cannot keep ..."), without a trailing figure in brackets — as long as at
// least 12 characters of it are left (the whole sentence stays the
// mechanism; the figure is the record's `observed`, stated_effect).
// The words that open the clause giving a lever's cause.
constexpr const char *kCauseConnective = "because|since|due to|caused by|as a result of";

std::string lever_without_its_cause(const std::string &lever, const levers::LeverVocabulary &vocabulary) {
  static const text::Regex cause(std::string(R"((?i)[\s,;]+(?:)") + kCauseConnective + R"()\s+\S)");
  static const text::Regex verdict(
      R"((?i)\s+(?:(?:is|are|was|were)\s+(?:slower|worse|no faster|not faster|no better|not worth)|)"
      R"([+-]?\d+(?:\.\d+)?\s*%\s+(?:slower|worse|faster|better)\b|)"
      R"(gains?\s+nothing|gained\s+nothing|(?:can ?not|can't|does not|doesn't|did not|didn't)\s|)"
      R"((?:fails?|failed|hurts?|regress(?:es|ed)?|loses?|lost|spills?|spilled|exceeds?|exceeded|leaves?|)"
      R"(seriali[sz](?:es|ed)|exposes?|exposed|oversubscribes?|oversubscribed|idles?|idled|thrash(?:es|ed)?|)"
      R"(starves?|starved|evicts?|evicted|overflows?|overflowed|wastes?|wasted|breaks?|broke)\b|)"
      R"(costs? more|makes? it (?:slower|worse)|)"
      R"((?:returns?|returned|produces?|produced|gives?|gave)\s+(?:NaNs?|infs?|wrong|incorrect|garbage)\b))");
  static const text::Regex figure(std::string(R"(\s*)") + kBracketedFigure + R"(\s*$)");
  // What is left must still say what was tried: 12 characters, or fewer
  // when they set a value, name the code or name a lever with a figure
  // ("ROWS=2", "fast_expf", "bf16 math"), never a lever of prose and its
  // verdict alone ("TMA fails").
  static const text::Regex setting(R"(\b[A-Za-z_]\w*\s*=\s*\S)");
  // A name of the code ("fast_expf", "tl.exp2", "__launch_bounds__") says
  // what was tried on its own.
  static const text::Regex code_name(R"(\b[A-Za-z]\w*_\w+|\b[A-Za-z]\w*\.[A-Za-z_]\w*|__\w+__)");
  auto cut = [&vocabulary](const std::string &s, const text::Regex &re) {
    auto m = re.search(s);
    if (!m) return s;
    std::string head(text::rstrip_chars(std::string_view(s).substr(0, m->begin), " ,;:"));
    bool names = setting.contains(head) || code_name.contains(head) ||
                 (!vocabulary.named_in(head).empty() && std::any_of(head.begin(), head.end(), [](char ch) {
                   return std::isdigit(static_cast<unsigned char>(ch));
                 }));
    bool enough = text::code_points(head) >= 12 || (text::code_points(head) >= 4 && names);
    return enough ? head : s;
  };
  // "(reverted: ...)": the run's verdict and its reason, not the lever; a
  // second sentence is the account's explanation.
  static const text::Regex reverted(R"((?i)\s*\(\s*(?:reverted|dead[- ]end)\b)");
  static const text::Regex next_sentence(R"(\.\s+\S)");
  // "try software-pipeline stages 5", "re-test X", "one more attempt at X",
  // "adopt X": the lever is X (round 7: "before trying try ..."; round 11:
  // "Do not take adopt half-precision accumulation").
  static const text::Regex trying(
      R"((?i)^\s*(?:(?:re-?)?try(?:ing)?|re-?test(?:ing)?|revisit(?:ing)?|experiment(?:ed)?\s*:|(?:one more )?attempt(?:ed)? at|)"
      R"(adopt(?:ing|ed)?|enabl(?:e|ed|ing)|switch(?:ed|ing)? to|(?:changed|set|switched|moved)(?=\s+\S+\s+\S))\s+)");
  std::string out = cut(cut(cut(cut(cut(lever, reverted), next_sentence), cause), verdict), figure);
  std::string bare = trying.replace(out, "");
  return text::code_points(text::strip(bare)) >= 4 ? bare : out;
}

namespace {

// The figure the run stated beside the lever, verbatim without its
// brackets ("+4.0%").
std::optional<std::string> stated_effect(const std::string &lever) {
  static const text::Regex figure(kBracketedFigure);
  auto m = figure.search(lever);
  if (!m || !m->has(1)) return std::nullopt;
  return std::string(text::strip((*m)[1]));
}

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

// One lever: a sentence without `;`, a comma or ` + ` outside brackets,
// "also", or a second setting arrow ("…; also tried a split-row reduction
// and num_stages=3", "BLOCK_V 4096->8192 + num_warps 8->16").
bool one_lever_sentence(const std::string &sentence) {
  static const text::Regex also(R"((?i)\balso\b)");
  static const text::Regex arrow(R"(->|\x{2192}|=>)");
  if (also.contains(sentence) || arrow.find_all(sentence).size() > 1) return false;
  int depth = 0;
  for (std::size_t i = 0; i < sentence.size(); ++i) {
    char ch = sentence[i];
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) --depth;
    if (depth == 0 && (ch == ';' || ch == ',')) return false;
    if (depth == 0 && ch == '+' && i > 0 && sentence[i - 1] == ' ' && i + 1 < sentence.size() && sentence[i + 1] == ' ')
      return false;
  }
  return true;
}

// The change's lever and the reason it was tried: "Changed SPLIT_K 1->4.
// Small-M shapes launch too few CTAs; splitting K fills the machine." is
// one lever, its first sentence; what follows is why the run hoped it would
// pay, never why it failed (stop 44: a generator nobody here wrote states
// every dead-end so, and all of them were refused as naming several
// levers). nullopt when the lever sentence names several levers or a later
// sentence sets another one.
struct LeverAndHope {
  std::string lever;
  std::vector<std::string> hopes;
};
std::optional<LeverAndHope> the_one_lever(const std::string &change) {
  static const text::Regex setting(R"((?i)->|\x{2192}|=>|\balso\b|^\s*(?:and\s+)?(?:tried|set|changed|switched|moved|)"
                                   R"(enabled|dropped|added|replaced|raised|lowered)\b)");
  auto sentences = text::sentences(change);
  if (sentences.empty() || !one_lever_sentence(std::string(sentences.front()))) return std::nullopt;
  LeverAndHope r{std::string(text::rstrip_chars(text::strip(sentences.front()), ".")), {}};
  for (std::size_t i = 1; i < sentences.size(); ++i) {
    if (setting.contains(sentences[i])) return std::nullopt;
    if (auto t = text::strip(sentences[i]); !t.empty()) r.hopes.emplace_back(t);
  }
  return r;
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

// "block size 4096 -> 8192, at block size=8192 ptxas reports spills because
// the tile no longer fits — reverted, 16.93→17.80us (+5.1%)": the reason
// alone, without the lever it repeats from `attempted` and the verdict with
// its figures after it, as long as what is left still states a mechanism.
// A label the run attaches to its verdicts ("(occupancy drop)", "(bank
// conflicts?)": a few words in brackets, no figure) is no part of a reason
// (round 14: a host-side workspace bug filed with "(occupancy drop)" as
// part of its mechanism); the text without the labels that end it.
std::string without_trailing_labels(std::string text) {
  static const text::Regex label(R"(\s*\((?:\s*[A-Za-z][\w'/-]*[?]?){1,4}\s*\)\s*$)");
  text = std::string(text::rstrip_chars(text, " ,;"));
  for (std::string before; before != text;)
    before = text, text = std::string(text::rstrip_chars(label.replace(text, ""), " ,;"));
  return text;
}

std::string the_reason_alone(const std::string &sentence, const std::string &attempted,
                             const record::FactContext &context) {
  static const text::Regex verdict_tail(
      R"((?i)(?:\s*[\x{2014}\x{2013}]\s*|\s+--?\s+|[\s,;]+)(?:reverted|dead[- ]end)\b.*$|\s*\(\s*(?:reverted|dead[- ]end)\b[^()]*\)\s*$)");
  // Only a lever set off as a clause of its own ("X, at ...", "X: ..."),
  // never "X gains nothing because ...".
  static const text::Regex separators(R"(^\s*(?:[,;:\x{2014}\x{2013}]|\s-+\s)\s*)");
  std::string out = sentence;
  std::string head(text::strip(attempted));
  if (!head.empty() && text::to_lower(out).starts_with(text::to_lower(head))) {
    std::string tail = out.substr(head.size());
    if (auto m = separators.search(tail); m && m->begin == 0 && m->end < tail.size()) out = tail.substr(m->end);
  }
  static const text::Regex figure(std::string(R"(\s*)") + kBracketedFigure + R"(\s*$)");
  out = without_trailing_labels(figure.replace(verdict_tail.replace(out, ""), ""));
  return record::states_mechanism(out, context) ? out : sentence;
}

// A sentence names a cause of its own beyond the attempt and the verdict:
// what is left still matches a cause (12 characters at least).
// Its figures ("23.3% slower") aside, what is left must be more than a
// bracketed label the run attached ("8 warps per block 23.3% slower (launch
// overhead dominates)", "(tail effect)": round 14) and no guess.
bool says_more_than(const std::string &sentence, const std::string &attempted, const record::FactContext &context) {
  static const text::Regex figure(R"((?i)[+-]?\d+(?:\.\d+)?\s*%(?:\s+(?:slower|worse|faster|better)\b)?)");
  static const text::Regex label_only(R"(^\s*\([^()]*\)[\s.,;]*$)");
  std::string rest(text::strip(figure.replace(beyond_the_attempt(sentence, attempted), " ")));
  if (text::code_points(rest) < 12 || label_only.contains(rest)) return false;
  // A guess in a label after a stated reason does not unmake the reason.
  if (record::speculative_regex().contains(rest)) {
    rest = without_trailing_labels(rest);
    if (text::code_points(rest) < 12 || record::speculative_regex().contains(rest)) return false;
  }
  return record::mechanism_regex().contains(rest) ||
         (context.correctness_failed && record::accuracy_failure_regex().contains(rest));
}

// A sentence that could stand as the cause of an accuracy failure the
// step's check saw: long enough for the gate, no measurement report, guess
// or pass, and more than its figures once the lever is taken out.
bool explains(const std::string &sentence, const std::string &attempted) {
  static const text::Regex figure(R"((?i)[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?\s*%?)");
  // Advice is no cause: "check the per-shape table before generalising".
  static const text::Regex advice(
      R"((?i)^\W*(?:check|see|try|use|avoid|keep|make sure|consider|note|remember|prefer|do not|don't)\b)");
  const auto s = text::strip(sentence);
  if (text::code_points(s) < record::kMinMechanismChars || record::non_mechanism_regex().contains(s) ||
      record::speculative_regex().contains(s) || record::reports_a_pass(s) || advice.contains(s))
    return false;
  return text::code_points(text::strip(figure.replace(beyond_the_attempt(sentence, attempted), " "))) >= 24;
}

std::string without_revert_marker(const std::string &subject) {
  static const text::Regex marker(R"((?i)^\s*reverted\b[\s.:;,\x{2014}\x{2013}-]*)");
  return marker.replace(subject, "");
}

} // namespace

// A label the run put before its reason ("Why: one tile now spans the
// row"): the record's field already says what the text is.
std::string without_reason_label(const std::string &text) {
  static const text::Regex label(R"(^\s*(?i:why|reason|rationale|mechanism|because)\s*:\s*)");
  std::string out = label.replace(text, "");
  return text::code_points(out) >= 12 ? out : text;
}

std::string comparable_reason(const std::string &text) {
  static const text::Regex label(R"(^\s*[a-z][\w ]{0,24}:\s+)");
  static const text::Regex lead(R"(^\s*(?:because|since|as)\s+)");
  std::string s = lead.replace(label.replace(text::folded(text), ""), "");
  while (!s.empty() && (s.back() == '.' || s.back() == ';' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string beyond_the_attempt(const std::string &sentence, const std::string &attempted) {
  static const text::Regex verdict(
      std::string(R"((?i)\([^()]*\b(?:fail(?:ed|s)?|pass(?:ed)?|correctness|reverted|max_\w*err\w*)\b[^()]*\)|)") +
      kBracketedFigure);
  std::string out = verdict.replace(sentence, " ");
  const std::string lever(text::strip(attempted));
  // An attempt that keeps its cause (too little was left before it) is no
  // repetition to take away.
  if (text::code_points(lever) < 4 || record::mechanism_regex().contains(lever)) return out;
  // ASCII case folding keeps byte offsets (towlower may not).
  auto fold = [](char a) { return a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a; };
  auto at = std::search(out.begin(), out.end(), lever.begin(), lever.end(),
                        [&](char a, char b) { return fold(a) == fold(b); });
  if (at != out.end()) out.erase(at, at + static_cast<std::ptrdiff_t>(lever.size()));
  return out;
}

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
    if (!reasons.empty())
      if (auto m = own(reasons, "what_the_run_said.expected_impact")) return m;
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
  return std::nullopt;
}

record::FactContext fact_context(const json::Value &af) {
  const auto &m = af.get("measurements");
  auto gate = nonblank(workspace::WhatTheRunSaid::from_json(af).gate_verdict);
  bool failed =
      ladder::correctness_failed(m.get("correctness").get("status")) || (gate && record::gate_failed_on_results(*gate));
  const auto op = workspace::PacketOperator::from_json(af);
  return record::make_fact_context(op.dsl, op.fixed_axes, failed);
}

namespace {

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
    if (t.source.ends_with("fix") || t.source == "how_it_was_fixed") continue;
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
  std::vector<std::string> texts;
  for (const auto &t : a.evidence) texts.push_back(t.text);
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
