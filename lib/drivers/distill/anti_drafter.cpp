// The anti-strategy drafter: one failed lever as an established fact,
// checked against the attempt's code and the run's measurements.
#include "distill/draft_context.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

#include "text/code_list.hpp"
#include "text/pyformat.hpp"

#include "code/gluon_layouts.hpp"
#include "code/launch_constexprs.hpp"
#include "code/tile_constants.hpp"
#include "code/unbound_names.hpp"
#include "diff/diff_reading.hpp"
#include "diff/function_swap.hpp"
#include "distill/anti_fact.hpp"
#include "distill/anti_lesson.hpp"
#include "distill/change_claims.hpp"
#include "distill/diff_snippet.hpp"
#include "levers/lever_settings.hpp"
#include "record/established_fact.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"
#include "workspace/shape_finding.hpp"

namespace otm::distill::drafting {

namespace {

// "correctness FAIL (max_abs_err 0.0031, max_rel_err 0.0044)": what the
// step's own correctness check observed, when it failed.
std::optional<std::string> observed_failure(Context &c) {
  if (auto gate = text_of(c.said.gate_verdict)) return gate;
  const auto &corr = c.af.get("measurements").get("correctness");
  auto status = text_of(corr.get("status"));
  if (!status || !fact_context(c.af).correctness_failed) return std::nullopt;
  std::string errors;
  for (const char *k : {"max_abs_err", "max_rel_err"})
    if (corr.get(k).is_number()) {
      if (!errors.empty()) errors += ", ";
      errors += k;
      errors += ' ';
      errors += corr.get(k).python_str();
    }
  std::string out = "correctness " + *status;
  if (!errors.empty()) out += " (" + errors + ")";
  return out;
}

// An accuracy failure's speed side (round 27, V17: the tanh GELU failed
// atol 1e-3 while 1.9 % faster; a reader with a looser tolerance would
// take it): "; it measured 1.89 % faster than the code it was tried on
// (the run's spread ...: 1.2 %)", from the packet's figures only; "" for
// other failures or without them.
std::string speed_of_a_failed_check(Context &c, const AntiFact &fact) {
  if (fact.verdict != "accuracy-gate/ceiling") return {};
  const auto &m = c.af.get("measurements");
  const auto &slower = m.get("slower_than_tried_on_pct"), &band = m.get("same_code_spread_pct");
  if (!slower.is_number() || *slower.as_number() == 0) return {};
  const double x = *slower.as_number();
  std::string out = "; it measured " + json::Value(std::abs(x)).python_str() + " % " + (x < 0 ? "faster" : "slower") +
                    " than the code it was tried on";
  if (band.is_number())
    out += " (the run's own spread of re-measurements of unchanged code: " + band.python_str() + " %)";
  return out;
}

// How many accounts of the lever the run's step records give in all, and,
// for a failed check, that none of the others passed one (kit 54, Q07: the
// same bf16 accumulation failed at fourteen steps; the record showed one).
// "" for a lever accounted for once. An account is a step that states the
// lever, not necessarily a new attempt (kit 39, K25).
std::string other_accounts(Context &c, const AntiFact &fact) {
  const auto n = c.af.get("accounts_of_this_lever").as_int().value_or(1);
  if (n <= 1) return {};
  std::string out = "; the run's step records give " + std::to_string(n) + " accounts of this lever in all";
  if (fact.verdict == "accuracy-gate/ceiling" && c.af.get("other_accounts_that_passed_correctness").is_number() &&
      c.af.get("other_accounts_that_passed_correctness").as_int().value_or(-1) == 0)
    out += ", none of the others with a passing correctness check";
  return out + " (their versions are in evidence.raw.evidence_extra.accounts_of_this_lever)";
}

// An account that says its lever gained nothing ("exp2 ... gained nothing:
// Triton already lowers tl.exp to the same ex2.approx") and an attempt
// measured inside the noise of the code it was tried on, either way: the
// failure the account states is borne out. Returns what was observed;
// nullopt when the account says no such thing or the figure is missing.
// An attempt measured faster beyond the noise contradicts it (refused).
std::optional<std::string> no_effect_observed(Context &c, const AntiFact &fact) {
  if (fact.verdict != "not-worth-it-here") return std::nullopt;
  std::string account =
      fact.attempted + "\n" + c.account.the_failed_lever + "\n" + c.said.commit_subject + "\n" + c.said.change;
  for (const auto &p : c.account.pitfalls) account += "\n" + p;
  // The run's bookkeeping ("kept -> 95.5->95.2us no improvement over
  // 94.4us, 15th consecutive dead-end") says nothing of the lever (round
  // 18: a pitfall "GROUP_M regressed ... by ~9%" read as "gained nothing").
  if (!record::no_effect_regex().contains(record::non_mechanism_regex().replace(account, " "))) return std::nullopt;
  const auto &m = c.af.get("measurements");
  const auto &slower = m.get("slower_than_tried_on_pct"), &band = m.get("same_code_spread_pct");
  if (!slower.is_number()) return std::nullopt;
  const double limit = band.is_number() ? *band.as_number() : c.rules.no_effect_max_pct;
  // Only the packet's own figures: otm-explain traces each one back.
  std::string within;
  if (band.is_number())
    within = ", inside the run's own spread of re-measurements of unchanged code (" + band.python_str() + " %)";
  const Value *lo = nullptr, *hi = nullptr;
  if (const auto *shapes = m.get("per_shape_vs_measured_against").as_array())
    for (const auto &s : *shapes)
      if (const auto &p = s.get("change_pct"); p.is_number()) {
        if (!lo || *p.as_number() < *lo->as_number()) lo = &p;
        if (!hi || *p.as_number() > *hi->as_number()) hi = &p;
      }
  if (lo && hi) within += "; each shape between " + lo->python_str() + " % and " + hi->python_str() + " %";
  if (*slower.as_number() < -limit)
    refuse("payload.verdict", "the account says the lever gained nothing, but the attempt measured " +
                                  json::Value(-*slower.as_number()).python_str() +
                                  " % faster than the code it was tried on: the measurement contradicts it");
  if (*slower.as_number() > limit) return std::nullopt; // a slowdown: the usual failure
  return "no measurable effect: " + slower.python_str() + " % against the code it was tried on" + within;
}

// The register count a cause states ("Register count rose from 64 to 96+"
// -> 96: the largest number of a sentence about registers) and the one
// the step's own capture of the kernel under test measured
// ("Registers/thread: 40", "Registers Per Thread  register/thread  72").
std::optional<long> stated_registers(std::string_view cause) {
  static const text::Regex sentence(R"((?i)[^.;]*\bregisters?\b[^.;]*)");
  static const text::Regex number(R"((?<![\w.^])\d{2,3}(?![\w.%]))");
  std::optional<long> most;
  for (const auto &m : sentence.find_all(cause))
    for (const auto &n : number.find_all(m[0])) {
      long v = std::stol(std::string(n[0]));
      if (!most || v > *most) most = v;
    }
  return most;
}

// (At most six digits: a longer run is no register count, and std::stol
// must not throw on a hostile capture.)
std::optional<long> captured_registers(const Value &profiler) {
  if (!profiler.get("conclusion_is_from_the_kernel_under_test").truthy()) return std::nullopt;
  static const text::Regex measured(R"((?i)registers?[ _]*(?:/|per)[ _]*thread\b[^\d\n]{0,40}?(\d{1,6})(?!\d))");
  for (const char *k : {"conclusion", "evidence"})
    if (const auto *t = profiler.get(k).as_string())
      if (auto m = measured.search(*t)) return std::stol(std::string((*m)[1]));
  return std::nullopt;
}

// The cause states values of a lever the attempt sets, and none of them is
// the value tried: it speaks of another setting.
std::optional<std::string> cause_about_another_setting(const AntiFact &fact,
                                                       const levers::LeverVocabulary &vocabulary) {
  std::map<std::string, std::set<std::string>> tried, said;
  for (const auto &t : levers::settings_in(vocabulary, levers::claim_of(fact.attempted)))
    if (!t.value.empty()) tried[t.lever].insert(t.value);
  const std::string cause = beyond_the_attempt(fact.mechanism.text, fact.attempted);
  std::map<std::string, std::string> first_mention;
  for (const auto &m : levers::settings_in(vocabulary, cause))
    if (!m.value.empty()) {
      said[m.lever].insert(m.value);
      first_mention.try_emplace(m.lever, cause.substr(m.begin, m.end - m.begin));
    }
  for (const auto &[lever, values] : said) {
    auto t = tried.find(lever);
    if (t == tried.end()) continue;
    bool shared = std::any_of(values.begin(), values.end(), [&](const auto &v) { return t->second.count(v) > 0; });
    if (!shared)
      return "the cause speaks of \"" + first_mention[lever] + "\", but the attempt set that lever to " +
             *t->second.begin() + ": the cause is about another setting";
  }
  return std::nullopt;
}

// Whether `sentence` holds `setting` ("T=65536") bounded by neither a word
// character nor a dot.
bool holds_setting(std::string_view sentence, const std::string &setting) {
  auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.'; };
  for (auto at = sentence.find(setting); at != std::string_view::npos; at = sentence.find(setting, at + 1)) {
    auto end = at + setting.size();
    if ((at == 0 || !word(sentence[at - 1])) && (end == sentence.size() || !word(sentence[end]))) return true;
  }
  return false;
}

// A slowdown the account states that the attempt's own per-shape
// measurement contradicts: "num_stages regressed T=65536,E=64 by ~4%" for
// an attempt that measured that shape 1.3 % faster (stop 44, a pitfall the
// run recorded on a step it kept). A shape the sentence names by its axes
// must have measured slower; a figure with no shape named must be matched
// at least half-way by some shape. nullopt when nothing contradicts it.
std::optional<std::string> slowdown_contradicted(const Value &af) {
  static const text::Regex slowdown(R"((?i)\b(?:regress(?:es|ed|ion)?|slow(?:s|ed|er)?|hurts?|worse)\b)");
  static const text::Regex figure(R"((\d+(?:\.\d+)?)\s*%)");
  const auto *shapes = af.get("measurements").get("per_shape_vs_measured_against").as_array();
  if (!shapes || shapes->empty()) return std::nullopt;
  const auto attempt = workspace::AttemptAccount::from_json(af);
  std::vector<std::string> texts{attempt.the_failed_lever};
  texts.insert(texts.end(), attempt.pitfalls.begin(), attempt.pitfalls.end());
  for (const auto &t : texts)
    for (const auto &sentence : text::sentences(t)) {
      if (!slowdown.contains(sentence)) continue;
      const Value *named_slower = nullptr, *named_faster = nullptr;
      double most = -1e9;
      for (const auto &sh : *shapes) {
        const auto pct = sh.get("change_pct").as_number();
        if (!pct) continue;
        most = std::max(most, *pct);
        const auto *axes = sh.get("axes").as_object();
        if (!axes || axes->empty()) continue;
        bool all = true;
        for (const auto &[k, v] : *axes)
          if (!holds_setting(sentence, k + "=" + v.python_str())) all = false;
        if (all) (*pct > 0 ? named_slower : named_faster) = &sh;
      }
      const auto stated = figure.search(sentence);
      const double stated_pct = stated ? std::stod(std::string((*stated)[1])) : 0;
      std::string said = "the account says \"" + std::string(text::strip(sentence)) + "\", but ";
      if (named_faster && !named_slower)
        return said + "the attempt measured " + workspace::ShapeFinding::from_json(*named_faster).shape + " " +
               named_faster->get("change_pct").python_str() +
               " % against the code it was tried on (faster): the measurement contradicts it";
      // A shape named slower by a figure must have measured at least half
      // of it (round 18: "regressed M=8192,N=7168,K=18432 by ~9%" where
      // that shape measured 1.02 % slower).
      if (named_slower && stated_pct >= 2 && *named_slower->get("change_pct").as_number() < stated_pct / 2)
        return said + "the attempt measured " + workspace::ShapeFinding::from_json(*named_slower).shape + " only " +
               named_slower->get("change_pct").python_str() +
               " % slower than the code it was tried on: the measurement contradicts it";
      if (named_slower || named_faster) continue;
      if (stated && most > -1e9) {
        if (stated_pct >= 2 && most < stated_pct / 2)
          return said + "no shape of the attempt measured more than " + json::Value(most).python_str() +
                 " % slower than the code it was tried on: the measurement contradicts it";
      }
    }
  return std::nullopt;
}

// A lever set back from the setting an earlier kept step of the run won
// with (kit 58, M19: "channel-innermost layout -> nchw" after the run kept
// NHWC at -9.8 %, blamed on "the layout conversion kernel"; kit 60, K16:
// BLOCK_D=32 after the run kept "BLOCK_D 32->64", blamed on "128 channels
// ... blow the register file"): the slowdown is that step's gain given
// back, which the account's own cause does not establish. A named setting
// (a layout, a quoted modifier) moved to another name; a number only back
// to the value the kept step moved it from (a tile moved past a kept size
// is a new setting).
std::optional<std::string> gives_back_a_kept_setting(const Context &c, const AntiFact &fact) {
  const auto kept = strings_at(c.af.get("kept_in_the_run_with_other_settings"));
  const auto *versions = c.prov.get("kept_in_the_run_with_other_settings").as_array();
  if (kept.empty() || !versions) return std::nullopt;
  auto number = [](const json::Value &v) -> std::optional<long> {
    const auto *s = v.as_string();
    if (!s || s->size() < 2 || (*s)[0] != 'v' || !std::isdigit(static_cast<unsigned char>((*s)[1])))
      return std::nullopt;
    return std::strtol(s->c_str() + 1, nullptr, 10);
  };
  const auto own = number(c.prov.get("version"));
  if (!own || std::none_of(versions->begin(), versions->end(), [&](const json::Value &v) {
        const auto n = number(v);
        return n && *n < *own;
      }))
    return std::nullopt;
  const auto &vocabulary = c.rules.retrieval.levers;
  static const text::Regex moved(R"((\d+)\s*(?:->|\x{2192})\s*(?:\d+\s*(?:->|\x{2192})\s*)*(\d+))");
  for (const auto &tried : levers::settings_in(vocabulary, levers::claim_of(fact.attempted))) {
    if (tried.value.empty() || tried.value.starts_with("no ")) continue;
    for (const auto &k : kept)
      for (const auto &won : levers::settings_in(vocabulary, k)) {
        if (!levers::same_knob(won, tried) || won.value.empty() || won.value == tried.value) continue;
        bool undone = levers::is_named_value(tried.value) && levers::is_named_value(won.value) &&
                      vocabulary.named_settings_are_alternatives(won.lever);
        if (auto m = moved.search(std::string_view(k).substr(won.begin, won.end - won.begin)))
          undone = undone || ((*m)[1] == tried.value && (*m)[2] == won.value);
        if (undone)
          return "the attempt sets the lever to " + tried.value + ", away from the " + won.value +
                 " an earlier kept step of the run set (\"" + k +
                 "\"): its slowdown is that step's gain given back, which the account's cause does not establish";
      }
  }
  return std::nullopt;
}

// Issue 25: a failed lever is an established fact only when the run's code
// and measurements agree with it. Refuses one the run kept as a win (a kept
// step stating the same setting, before or after it, or the setting the
// attempt moved away from), one whose attempt changed no running code or not
// the lever's, and an accuracy failure the step's own correctness check
// contradicts.
// Returns what a lever that gained nothing was observed to do, when the
// account says so and the noise bears it out (no_effect_observed).
std::optional<std::string> check_anti_against_the_run(Context &c, const AntiFact &fact,
                                                      const std::optional<diff::DiffReading> &diff) {
  if (auto why = slowdown_contradicted(c.af)) refuse("payload.verdict", *why);
  std::vector<std::string> later = strings_at(c.af.get("kept_in_the_run_with_the_same_setting"), "change");
  if (!later.empty())
    refuse("payload.attempted", "a kept step of this run states the same setting of this lever (\"" +
                                    std::string(text::rstrip_chars(later.front(), " .")) +
                                    "\"): that the lever fails is not the run's finding");
  if (!fact.did_not_build)
    if (auto back = gives_back_a_kept_setting(c, fact)) refuse("payload.established_fact.mechanism", *back);
  // A slowdown inside the run's own spread of re-measurements of unchanged
  // code (or a speed-up) is noise, not a failed lever.
  const auto &m = c.af.get("measurements");
  const auto &slower = m.get("slower_than_tried_on_pct"), &band = m.get("same_code_spread_pct");
  // An account that the lever gained nothing is the exception: there the
  // noise is what bears it out.
  const auto no_effect_seen = no_effect_observed(c, fact);
  const bool no_effect = no_effect_seen.has_value();
  if (!no_effect && fact.verdict == "not-worth-it-here" && slower.is_number() && *slower.as_number() <= 0)
    refuse("payload.verdict", "the attempt measured no slower than the code it was tried on (" + slower.python_str() +
                                  " %): the failure is not established");
  if (!no_effect && fact.verdict == "not-worth-it-here" && slower.is_number() && band.is_number() &&
      *slower.as_number() <= *band.as_number())
    refuse("payload.verdict", "the attempt measured " + slower.python_str() +
                                  " % slower than the code it was tried on, inside the run's own spread of "
                                  "re-measurements of unchanged code (" +
                                  band.python_str() + " %): the failure is not established");
  if (fact.verdict == "accuracy-gate/ceiling" && correctness_passed(c.af))
    refuse("payload.verdict", "the account says the lever failed on accuracy, but the step's own correctness check "
                              "passed: the measurement contradicts it");
  // A timeout the run's other tries of the lever contradict (kit 48, U13:
  // num_stages=3 timed out once and ran and passed at later steps): the
  // harness's, not the lever's. So is a build failure of a setting the run
  // built, ran and checked at another try (kit 59, L02: "TILE_K=64 does not
  // compile" where TILE_K 32->64 was measured twice): it failed beside other
  // settings the account does not name.
  const bool timed_out = record::timeout_regex().contains(c.account.correctness_status) ||
                         record::timeout_regex().contains(c.said.gate_verdict);
  if ((fact.verdict == "accuracy-gate/ceiling" || timed_out || fact.did_not_build) &&
      c.af.get("other_accounts_that_passed_correctness").as_int().value_or(0) > 0) {
    const auto *versions = c.prov.get("other_accounts_that_passed_correctness").as_array();
    std::string which = versions && !versions->empty() && (*versions)[0].is_string()
                            ? " (" + *(*versions)[0].as_string() + ")"
                            : std::string();
    refuse("payload.verdict", std::string(timed_out            ? "the attempt ran out of time"
                                          : fact.did_not_build ? "the account says the lever does not build"
                                                               : "the account says the lever failed on accuracy") +
                                  ", but the run tried it again and that step " +
                                  (fact.did_not_build ? "built, ran and " : "") + "passed its correctness check" +
                                  which + ": the failure is not the lever's");
  }
  // A cause the step's own capture refutes: "registers rose to 96" where
  // the capture of the kernel under test measured 40 per thread.
  if (auto stated = stated_registers(fact.mechanism.text))
    if (auto captured = captured_registers(c.af.get("profiler"));
        captured && *captured > 0 && std::abs(*stated - *captured) * 4 > *captured)
      refuse("payload.established_fact.mechanism",
             "the account's cause puts the register count at " + std::to_string(*stated) +
                 ", but the step's own capture of the kernel under test measured " + std::to_string(*captured) +
                 " registers per thread: the measurement contradicts it");
  // A cause about another setting of the lever tried: "Tile width 8192
  // spilled" carried onto an attempt that set the tile to 256.
  if (auto other = cause_about_another_setting(fact, c.rules.retrieval.levers))
    refuse("payload.established_fact.mechanism", *other);
  const std::string range = range_of(c.provenance);
  bool computed = !c.prov.get("diff_from").is_null() || !c.prov.get("diff_to").is_null();
  if (!diff) {
    if (computed)
      refuse("payload.attempted", "the attempt changes nothing in the kernel " + range + ": the lever was never tried");
    return no_effect_seen; // a trace without kernel code: only the run's account
  }
  // An attempt whose code reads a name it binds nowhere cannot run as
  // written (round 7: a Gluon attempt reading undefined `X`, `eps`): what
  // the run measured was not this code.
  if (auto after = code_after(c); after && kernel_language(c) == code::Language::Python) {
    auto unbound = code::unbound_names(*after);
    if (!unbound.empty())
      refuse("payload.attempted", "the attempt's kernel reads " + text::quoted_code_list(unbound) +
                                      ", which it binds nowhere (no parameter, assignment, import or definition): "
                                      "it cannot run as written, so the run's measurement is not of this code");
    if (auto unsupplied = code::unsupplied_constexprs(*after);
        !unsupplied.empty() && code::diff_leaves_it_unsupplied(c.packet.code, unsupplied.front()))
      refuse("payload.attempted", "in the attempt, " + code::why_it_cannot_launch(unsupplied.front()) +
                                      " as written, so the run's measurement is not of this code");
  }
  // A cause about what the attempt's code does that the code contradicts.
  if (auto after = code_after(c)) {
    const auto &rule = c.rules.low_precision_sum;
    auto why = rule.contradiction(fact.mechanism.text, *after);
    if (!why) why = rule.short_sum_contradiction(fact.mechanism.text, *after, c.op.fixed_axes);
    if (why) refuse("payload.established_fact.mechanism", *why);
  }
  if (diff->running_lines() == 0)
    refuse("payload.attempted", "the attempt changes no code that runs " + range +
                                    " (only comments, docstrings, stamps or values nothing reads): the lever was "
                                    "never tried");
  const std::string dsl = c.op.dsl;
  const auto &vocabulary = c.rules.retrieval.levers;
  auto levers = levers::read_levers(*diff, fact.attempted, vocabulary, dsl);
  const std::string_view claim = levers::claim_of(fact.attempted);
  auto away = settings_moved_away(*diff, levers::settings_in(vocabulary, claim), vocabulary, dsl);
  if (!away.empty())
    refuse("payload.attempted",
           "the account says \"" +
               std::string(claim.substr(away.front().begin, away.front().end - away.front().begin)) +
               "\" fails, but the attempt " + range + " changes that lever away from " + away.front().value +
               ": the code it was tried on already had that setting, which the run kept");
  if (auto other = value_contradicted(*diff, levers::settings_in(vocabulary, claim), vocabulary, dsl))
    refuse("payload.attempted",
           "the account says \"" +
               std::string(claim.substr(other->setting.begin, other->setting.end - other->setting.begin)) +
               "\" fails, but the attempt " + range + " sets that lever to " + other->tried +
               ": the setting that failed is not the one it states");
  if (auto turned = direction_contradicted(*diff, claim, levers::settings_in(vocabulary, claim), vocabulary, dsl))
    refuse("payload.attempted",
           "the account says it " + turned->said + " \"" +
               std::string(claim.substr(turned->setting.begin, turned->setting.end - turned->setting.begin)) +
               "\", but the attempt " + range + " moves that lever from " + turned->before + " to " +
               turned->setting.value + ": the direction tried is not the one it states");
  // A cause that says the lever moved the way the attempt did not (kit 57,
  // N03, N01: "the wider N tile spills" for `TILE_N = 256` -> `64`, "the
  // extra stage costs shared memory" for stages 4 -> 2).
  {
    std::vector<DirectionClaimRule::Move> moves;
    for (const auto &mv : lever_moves(*diff, levers.realised, vocabulary, dsl))
      moves.push_back({mv.lever, mv.name + " " + std::to_string(mv.from) + " -> " + std::to_string(mv.to),
                       mv.to > mv.from ? 1 : -1});
    if (auto why = c.rules.direction_claim.contradiction(fact.mechanism.text, moves))
      refuse("payload.established_fact.mechanism", *why);
  }
  if (!levers.missing.empty())
    refuse("payload.attempted", "the account names " + text::quoted_code_list(levers.missing) +
                                    ", but no running change " + range +
                                    " of the attempt changes its code: the lever failed is not the one tried");
  // A failure measured over an attempt that also moved other levers'
  // settings is not the named lever's alone.
  auto others =
      other_levers_changed(*diff, code_after(c), fact.attempted + "\n" + fact.mechanism.text, vocabulary, dsl);
  if (!others.empty()) {
    std::vector<std::string> names;
    for (const auto &o : others) names.push_back(o.name);
    refuse("payload.attempted", "the attempt " + range + " also changes " + text::quoted_code_list(names) +
                                    ", which the account does not name: the failure cannot be put on its lever alone");
  }
  // Pipelining or unrolling tried on a kernel that runs no loop: whatever
  // was measured, it was not the lever's doing.
  if (auto lever = loop_lever_without_a_loop(levers.realised, code_after(c), vocabulary))
    refuse("payload.attempted", "the account's lever `" + *lever +
                                    "` acts on a loop, but the attempt's kernel runs none (no `for` or `while` in "
                                    "its device code): the lever changes nothing there, so the failure is not its");
  // A lever set only through a compiler option the DSL leaves unused on
  // this kernel (`num_stages` on a Triton loop without `tl.dot`): the
  // failure is not the lever's, unless the account's cause says just that.
  if (auto unused = lever_set_only_through_an_unused_option(*diff, levers.realised, code_after(c), vocabulary, dsl);
      unused && !vocabulary.compiler_option(unused->lever)->said_unused(fact.mechanism.text))
    refuse("payload.established_fact.mechanism",
           "the attempt sets `" + unused->lever + "` only through `" + unused->option + "`, and " + unused->reason +
               ": the option changes nothing there, so the account's cause is not what the run measured");
  // An established fact about code needs the code: an account whose lever
  // the attempt's running changes do not show cannot be checked. A lever
  // the vocabulary does not know is shown by a name of the account that the
  // attempt brings in or takes out (stop 44: "tanh GELU" and the new
  // `tl.math.tanh`).
  auto shown_by_its_own_names = [&] {
    if (!levers.claimed.empty()) return false;
    for (const auto &n : diff::names_of(claim))
      if (diff::changes_name(*diff, n.text)) return true;
    return false;
  };
  if (levers.realised.empty() && !shown_by_its_own_names())
    refuse("payload.attempted", "the account names no lever whose code a running change " + range +
                                    " of the attempt changes: what was tried cannot be checked against it");
  return no_effect_seen;
}

// The sentence by which the step's own account (its commit, its gate's
// verdict, the lever it isolated, its pitfalls) puts the failure on a defect
// of the attempt's code: "implementation bug: loop bound off by one" on a
// GROUP_M attempt (stop 44). The lever was never measured on working code.
std::optional<std::string> defect_named_by_the_run(const json::Value &af, const text::Regex &defect) {
  std::vector<const json::Value *> texts;
  const auto &said = af.get("what_the_run_said");
  for (const char *k : {"commit_subject", "commit_body", "gate_verdict"}) texts.push_back(&said.get(k));
  texts.push_back(&af.get("the_failed_lever"));
  if (const auto *pitfalls = af.get("pitfalls_recorded_here").as_array())
    for (const auto &p : *pitfalls)
      for (const char *k : {"pitfall", "explanation"}) texts.push_back(&p.get(k));
  for (const auto *t : texts)
    if (const auto *s = t->as_string())
      for (const auto &sentence : text::sentences(*s))
        if (defect.contains(sentence)) return std::string(text::strip(sentence));
  return std::nullopt;
}

// A fixed axis of the operator's definition (`ignore_index: -100`) whose
// handling the failed attempt's running code removes and nowhere adds back:
// the attempt changed what the kernel computes (kit 23, K05: "branch-free
// label path" dropped the `label == IGNORE_INDEX` select, so ignored rows
// returned lse). Its accuracy failure is that defect, not the lever's.
std::optional<std::string> definition_handling_dropped(const json::Value &af, const diff::DiffReading &diff) {
  const auto *axes = af.get("operator").get("fixed_axes").as_object();
  if (!axes) return std::nullopt;
  for (const auto &[axis, value] : *axes) {
    // An axis is a name (`ignore_index`); the kernel may spell it as a
    // constant (`IGNORE_INDEX`).
    std::string upper = axis;
    for (auto &ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    auto held = [&](bool added) {
      for (const auto &h : diff.hunks)
        for (const auto &line : h.running)
          if (line.added == added && !line.dead &&
              (diff::holds_name(line.code, axis) || diff::holds_name(line.code, upper)))
            return true;
      return false;
    };
    if (held(false) && !held(true))
      return "the failed attempt removes the kernel's handling of " + axis + " (" + value.python_str() +
             " in the operator's definition) and adds none back: it changed what the kernel computes, so its "
             "accuracy failure is that defect, not the lever's";
  }
  return std::nullopt;
}

} // namespace

Value draft_anti(Context &c) {
  auto res = anti_fact(c.af, c.rules.retrieval.levers);
  if (!res.fact) refuse(res.gap->field, res.gap->why);
  if (c.rules.code_defect)
    if (auto defect = defect_named_by_the_run(c.af, *c.rules.code_defect))
      refuse("payload.verdict", "the run's own account puts the failure on a defect of the attempt's code (\"" +
                                    *defect + "\"): the lever was not what failed");
  // A fix that only says the run went back is no advice for the lesson.
  if (res.fact->fix && c.rules.revert_only_fix && c.rules.revert_only_fix->contains(*res.fact->fix))
    res.fact->fix.reset();
  const auto &fact = *res.fact;
  // A cause that argues for the attempt: "the persistent loop adds
  // bookkeeping that outweighs the saved launches" for turning the loop
  // off, which measured slower (kit 58, M10, M39). It is the run's reason
  // to try, and the slowdown says the opposite.
  if (c.rules.argues_for_taking_out && c.rules.takes_out && !fact.did_not_build)
    if (const auto slower = c.af.get("measurements").get("slower_than_tried_on_pct").as_number(); slower && *slower > 0)
      if (auto argued = c.rules.argues_for_taking_out->search(fact.mechanism.text);
          argued && c.rules.takes_out->contains(fact.attempted))
        refuse("payload.established_fact.mechanism",
               "the cause says the lever's cost \"" + std::string((*argued)[0]) +
                   "\", a reason to take it out, but the attempt took it out and measured " + text::fixed(*slower, 2) +
                   " % slower: it is the run's reason to try, not why the try failed");
  // The run's stock sentence says what its template says, not why this
  // lever failed (kit 45: "register spills once BLOCK_KV * HEAD_DIM tiles
  // exceed ~64 regs/thread" for a step that shrank the tile; "lock
  // contention on the row-group partial buffers" for a launch-bounds move
  // on a kernel with no lock). A build error the toolchain printed is the
  // toolchain's, whatever the run repeats.
  if (!fact.did_not_build)
    if (const auto *stock = stock_sentence(c, fact.mechanism.text))
      refuse("payload.established_fact.mechanism",
             "the cause is the run's stock sentence (\"" + stock->text + "\"): its step records state it on " +
                 std::to_string(stock->steps) + " steps of " + std::to_string(stock->kinds) +
                 " kinds of change, so it says nothing of why this lever failed");
  // A build failure an NVIDIA toolchain reported is no failure of an AMD
  // target's build (kit 24: "ptxas: too many resources requested" filed
  // as why ROWS_PER_PROG=8 does not build for MI300X).
  if (fact.did_not_build && c.packet_target.scope.vendor == "amd") {
    static const text::Regex nvidia_tool(R"(\b(?:ptxas|nvcc|nvlink|nvdisasm|cuobjdump|PTX|sm_\d{2,3}a?)\b)");
    if (auto tool = nvidia_tool.search(fact.mechanism.text))
      refuse("payload.established_fact.mechanism", "the build failure the run quotes names an NVIDIA toolchain (\"" +
                                                       std::string((*tool)[0]) +
                                                       "\") for an AMD target: it is not this target's build failing");
  }
  std::optional<diff::DiffReading> diff;
  if (!c.packet.code.empty() && c.af.get("diff_file").is_string()) diff = diff::read_diff(c.packet.code, code_after(c));
  if (diff && fact.verdict == "accuracy-gate/ceiling")
    if (auto dropped = definition_handling_dropped(c.af, *diff)) refuse("payload.verdict", *dropped);
  if (diff && !fact.did_not_build)
    if (auto swap = c.rules.function_swap.swapped(c.packet.code))
      refuse("payload.attempted", diff::FunctionSwapRule::why_not_the_lever(*swap));
  const auto no_effect = check_anti_against_the_run(c, fact, diff);
  Value r = record_head(c);
  Value p = Value::object();
  p.set("goal", "Know which lever fails for " + (c.family.empty() ? std::string("this operator") : c.family) + " on " +
                    c.gpu + ", and why");
  p.set("problem", problem_of(c));
  p.set("attempted", fact.attempted);
  p.set("verdict", fact.verdict);
  p.set("lesson", anti_lesson(c, fact));
  Value cond = Value::object();
  if (!fact.condition.sm_arch.empty()) cond.set("sm_arch", fact.condition.sm_arch);
  if (!fact.condition.shape_regime.empty())
    cond.set("shape_regime", fact.condition.shape_regime);
  else if (fact.did_not_build)
    if (auto regime = shape_regime_the_error_names(fact, c.af); !regime.empty()) cond.set("shape_regime", regime);
  if (!fact.condition.dtype.empty()) cond.set("dtype", fact.condition.dtype);
  if (!fact.condition.toolchain.empty()) cond.set("toolchain", fact.condition.toolchain);
  Value ef = Value::object();
  ef.set("condition", cond);
  // A build failure's cause is the toolchain's report as the run quoted it
  // (kit 23: a compiler's message read as a law about register budgets):
  // said as observed, not derived.
  // An accuracy failure's cause that puts a figure on the error ("deviates
  // from erf GELU by up to 3e-3") is the run's arithmetic, which otm does not
  // redo (kits 33-35: a reader computed 4.7e-4 for that claim, three rounds
  // running): said as the run's.
  static const text::Regex figure(R"((?<![\w.])(?:\d+(?:\.\d+)?[eE][-+]?\d+|0\.\d+|\d+(?:\.\d+)?\s*%))");
  std::string mechanism = fact.mechanism.text;
  if (fact.did_not_build && record::launch_failure_regex().contains(mechanism))
    mechanism = "the runtime the run used refused to launch it (observed, not a derived cause): " + mechanism;
  else if (fact.did_not_build)
    mechanism = "the toolchain the run used rejected it at compile time (observed, not a derived cause): " + mechanism;
  else if (fact.verdict == "accuracy-gate/ceiling" && figure.search(mechanism))
    mechanism = "the run's account, whose figures otm did not derive: " + mechanism;
  ef.set("mechanism", mechanism);
  p.set("established_fact", ef);
  if (auto observed = observed_failure(c))
    p.set("observed", *observed + speed_of_a_failed_check(c, fact) + other_accounts(c, fact));
  else if (no_effect)
    p.set("observed", *no_effect);
  else if (fact.stated_effect)
    p.set("observed", "the run recorded " + *fact.stated_effect + " for this lever");
  // The failed attempt's code, when the quoted running changes change the
  // lever's code or hold a name the account gives it.
  const std::string dsl = c.op.dsl;
  const auto &vocabulary = c.rules.retrieval.levers;
  std::vector<std::string> tried;
  if (diff) tried = levers::read_levers(*diff, fact.attempted, vocabulary, dsl).realised;
  if (diff) {
    auto hunk = choose_diff_hunks(*diff, fact.attempted, [&](const diff::ChangedLine &line) {
      return levers::changes_lever(line, tried, vocabulary, dsl);
    });
    // A plain word of the attempt on a quoted changed line shows it too
    // ("tanh" in `y = 0.5 * h * (1.0 + tl.math.tanh(inner))`: kit 24 left
    // a tanh-GELU failure without its code).
    auto shows_a_word = [&] {
      const auto named = diff::named_in(*diff, fact.attempted);
      for (const auto line : text::split_lines(hunk->text))
        if (!line.empty() && (line.front() == '+' || line.front() == '-'))
          for (const auto &n : named)
            if (diff::holds_name(line.substr(1), n.text)) return true;
      return false;
    };
    if (hunk && (hunk->claimed_code_quoted || !hunk->names.empty() || shows_a_word())) {
      Value impl = Value::object();
      impl.set("format", kDiffFormat);
      impl.set("snippet", hunk->text);
      p.set("implementation", impl);
    }
  }
  r.set("payload", p);
  // Tags from the lever the account names (never the step's category); the
  // first trigger is that lever, then the symptoms its mechanism names.
  RecordTerms terms(c.rules.retrieval);
  terms.techniques_in(fact.attempted);
  terms.trigger("before trying " + std::string(text::rstrip_chars(text::strip(fact.attempted), " .;:,")) + " for " +
                (c.family.empty() ? std::string("this operator") : c.family) + " on " + c.gpu);
  terms.symptoms_in({fact.mechanism.text}, symptoms_as(c));
  set_terms(r, terms);
  Value ev = Value::object();
  ev.set("summary", summary_of(c, "inferred", "none", "the failure is stated by the run, not profiled"));
  Value raw = raw_of(c, effect_of(c, false));
  // Every account of the lever the record stands for (kit 54, Q07: one
  // attempt of fourteen cited, the repetition unseen).
  if (const auto *accounts = c.prov.get("accounts_of_this_lever").as_array(); accounts && accounts->size() > 1) {
    Value extra = raw.get("evidence_extra").is_object() ? raw.get("evidence_extra") : Value::object();
    extra.set("accounts_of_this_lever", c.prov.get("accounts_of_this_lever"));
    raw.set("evidence_extra", std::move(extra));
  }
  ev.set("raw", std::move(raw));
  r.set("evidence", ev);
  r.set("worth", worth_of(qualitative_gain("none")));
  auto problems = record::established_fact_problems(r);
  if (!problems.empty()) refuse("payload.established_fact", problems.front());
  return r;
}

} // namespace otm::distill::drafting
