#include "distill/drafter.hpp"

#include <algorithm>
#include <cctype>

#include "distill/change_claims.hpp"
#include "distill/diff_reading.hpp"
#include "distill/diff_snippet.hpp"
#include "distill/mechanism_source.hpp"
#include "distill/reference_kernel_code.hpp"
#include "error/error.hpp"
#include "ladder/noise.hpp"
#include "levers/lever_settings.hpp"
#include "record/established_fact.hpp"
#include "record/id_format.hpp"
#include "record/leak_shapes.hpp"
#include "record/store_layout.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"
#include "workspace/layout.hpp"

namespace otm::distill {

namespace {

using json::Value;

inline constexpr const char *kDiffFormat = "unified-diff (verbatim; '-' = before this step, '+' = after)";
inline constexpr const char *kSourceFormat = "source (verbatim)";

// Thrown from deep in a draft and caught by draft(): an otm::Error, as
// every exception of lib/ is, that carries the refusal.
struct Refused : Error {
  explicit Refused(DraftRefusal refusal) : Error(ErrorKind::Refused, refusal.field + ": " + refusal.why), r(refusal) {}
  DraftRefusal r;
};

[[noreturn]] void refuse(std::string field, std::string why) { throw Refused({std::move(field), std::move(why), ""}); }

std::string required_string(const Value &v, const std::string &field, const std::string &why) {
  const auto *s = v.as_string();
  if (!s || text::strip(*s).empty()) refuse(field, why);
  return *s;
}

std::optional<std::string> text_of(const Value &v) {
  const auto *s = v.as_string();
  if (!s || text::strip(*s).empty()) return std::nullopt;
  return *s;
}

// Unscrubbed packet fields (harness, fixed axes) are copied only when no
// leak shape occurs in them (the one definition in record/leak_shapes),
// strict as for every trace-derived layer: no version id, no 8-hex hash.
bool leak_free(const std::string &s) { return record::find_leaks(s, true).empty(); }

struct Context {
  const Packet &packet;
  const DraftRules &rules;
  const Value &target, &af, &prov;
  std::string type, id, family, gpu, what;
  Draft &out;
};

RecordTerms terms_for(Context &c) {
  RecordTerms t(c.rules.retrieval);
  t.tag(tag_of(c.af.get("what_the_run_said").string_or("category_hint")));
  return t;
}

void set_terms(Value &record, const RecordTerms &terms) { terms.write_to(*record.find("retrieval")); }

// The kernel file after the change, when the packet carries it: what the
// changed lines read and call is judged against it.
std::optional<std::string_view> code_after(const Context &c) {
  if (c.packet.code_after.empty()) return std::nullopt;
  return std::string_view(c.packet.code_after);
}

// Lever ids as words: "num-warps-tuning", "cache-hints" -> "num warps
// tuning and cache hints".
std::string lever_words(const std::vector<std::string> &ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) out += i + 1 == ids.size() ? " and " : ", ";
    std::string w = ids[i];
    std::replace(w.begin(), w.end(), '-', ' ');
    out += w;
  }
  return out;
}

// "`a`, `b` and `c`"
std::string quoted_list(const std::vector<std::string> &items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += i + 1 == items.size() ? " and " : ", ";
    out += "`" + items[i] + "`";
  }
  return out;
}

std::vector<std::string> strings_at(const Value &list, const char *key = nullptr) {
  std::vector<std::string> out;
  if (const auto *a = list.as_array())
    for (const auto &e : *a)
      if (auto t = text_of(key ? e.get(key) : e)) out.push_back(*t);
  return out;
}

// "between v7 and v10": the range the packet's diff holds.
std::string range_of(const Value &prov) {
  auto from = prov.get("diff_from").string_or("version"), to = prov.get("diff_to").string_or("version");
  if (from.empty() || to.empty()) return "in the step's diff";
  return "between " + from + " and " + to;
}

Value scope_of(Context &c) {
  const auto &scope = c.target.get("scope");
  Value s = Value::object();
  for (const char *k : {"vendor", "arch"})
    s.set(k, required_string(scope.get(k), std::string("retrieval.scope.") + k,
                             std::string("target.scope.") + k + " is missing: the drafter never guesses hardware"));
  s.set("product", scope.get("product"));
  s.set("dsl", required_string(scope.get("dsl"), "retrieval.scope.dsl", "target.scope.dsl is missing"));
  s.set("operator_family", scope.get("operator_family"));
  Value sig = Value::object();
  if (const auto *axes = c.af.get("operator").get("fixed_axes").as_object()) {
    for (const auto &[k, v] : *axes) {
      bool scalar = v.is_number() || v.is_bool() || v.is_string();
      if (scalar && leak_free(k) && (!v.is_string() || leak_free(*v.as_string()))) sig.set(k, v);
    }
  }
  if (sig.size()) s.set("shape_signature", sig);
  return s;
}

Value retrieval_of(Context &c) {
  Value r = Value::object();
  Value scope = scope_of(c);
  Value gen = Value::object();
  gen.set("arch", scope.get("arch"));
  gen.set("language", scope.get("dsl"));
  gen.set("workload_family", c.target.get("workload_family"));
  Value regime = Value::object();
  regime.set("predicate", "*");
  Value var_axes = Value::array();
  if (const auto *axes = c.af.get("operator").get("variable_axes").as_array())
    for (const auto &a : *axes)
      if (a.is_string() && leak_free(*a.as_string())) var_axes.push_back(a);
  regime.set("var_axes", var_axes);
  const auto &n = c.af.get("operator").get("n_benchmarked_shapes");
  regime.set("n_shapes", n.is_int() ? n : Value());
  Value signals = Value::object();
  signals.set("bottleneck", Value()); // rule 5: the drafter never classifies a bottleneck
  signals.set("metrics", Value::object());
  signals.set("shape_regime", regime);
  signals.set("symptoms", Value::array());
  r.set("scope", scope);
  r.set("generality", gen);
  r.set("signals", signals);
  r.set("technique_tags", Value::array());
  r.set("triggers", Value::array());
  return r;
}

Value problem_of(Context &c) {
  Value p = Value::object();
  p.set("target", c.gpu);
  p.set("statement", c.what);
  if (!c.family.empty()) p.set("operator", c.family);
  if (auto dsl = text_of(c.af.get("operator").get("dsl"))) p.set("dsl", *dsl);
  p.set("bottleneck", Value());
  return p;
}

Value measured_on(Context &c) {
  Value m = Value::object();
  auto harness = text_of(c.af.get("operator").get("harness"));
  if (harness && leak_free(*harness))
    m.set("harness", *harness);
  else
    c.out.thin.push_back("evidence.summary.measured_on.harness");
  m.set("gpu", c.gpu);
  return m;
}

Value summary_of(Context &c, const char *confidence, const char *basis, const char *note) {
  Value s = Value::object();
  s.set("confidence", confidence);
  s.set("measured_on", measured_on(c));
  Value be = Value::object();
  be.set("basis", basis);
  // The tool of the capture the quote came from (the packet names it).
  if (std::string(basis) == "profiler") be.set("tool", c.af.get("profiler").get("tool"));
  be.set("note", note);
  s.set("bottleneck_evidence", be);
  return s;
}

// A profiler basis cites the capture it quotes (the packet's report_dir, a
// usable capture), so ncu-attribution can check the record, not only the
// packet. The code's range (provenance.diff_from/diff_to) is carried too, so
// a reader can reproduce the snippet's diff with git.
Value raw_of(Context &c, Value effect, bool cite_captures = false) {
  Value raw = Value::object();
  raw.set("source_repo", c.prov.get("source_repo"));
  raw.set("version", c.prov.get("version"));
  raw.set("git_commit", c.prov.get("git_commit"));
  raw.set("effect", std::move(effect));
  Value extra = Value::object();
  if (cite_captures) extra.set("ncu_dirs", Value::strings({c.prov.string_or("report_dir")}));
  for (const char *k : {"diff_from", "diff_to"})
    if (c.prov.get(k).is_object() && c.af.get("diff_file").is_string()) extra.set(k, c.prov.get(k));
  if (extra.size()) raw.set("evidence_extra", extra);
  return raw;
}

Value rank_placeholder() {
  Value r = Value::object();
  r.set("score", 0.0);
  r.set("tier", "provisional");
  return r;
}

Value qualitative_gain(const char *kind) {
  Value g = Value::object();
  g.set("kind", kind);
  g.set("basis", "qualitative");
  g.set("pct", Value());
  g.set("metrics", Value::array());
  g.set("regressions", Value::array());
  return g;
}

Value effect_of(Context &c, bool with_delta) {
  const auto &m = c.af.get("measurements");
  Value e = Value::object();
  const auto &geo = m.get("geomean_us");
  e.set("basis", geo.is_number() ? "measured" : "qualitative");
  if (geo.is_number()) e.set("new_geomean_us", geo);
  if (with_delta && m.get("improve_pct_vs_best_so_far").is_number())
    e.set("delta_pct", m.get("improve_pct_vs_best_so_far"));
  if (m.get("comparable_with_the_store").is_bool()) e.set("comparable", m.get("comparable_with_the_store"));
  return e;
}

Value record_head(Context &c) {
  Value r = Value::object();
  r.set("schema", required_string(c.target.get("schema"), "schema", "target.schema is missing"));
  r.set("id", c.id);
  r.set("type", c.type);
  r.set("level", required_string(c.target.get("level"), "level", "target.level is missing"));
  r.set("status", "active");
  r.set("episode_key", required_string(c.target.get("episode_key"), "episode_key", "target.episode_key is missing"));
  r.set("retrieval", retrieval_of(c));
  return r;
}

Value strategy_gain(Context &c) {
  const auto &m = c.af.get("measurements");
  const auto &geo = m.get("geomean_us");
  const auto &pct = m.get("improve_pct_vs_best_so_far");
  Value g;
  if (geo.is_number() && pct.is_number()) {
    g = Value::object();
    g.set("kind", "performance");
    g.set("basis", "measured");
    g.set("primary", "latency");
    g.set("pct", pct);
    Value metric = Value::object();
    metric.set("metric", "latency");
    metric.set("direction", "lower-better");
    metric.set("source", "harness");
    metric.set("delta_pct", pct);
    metric.set("measured_over", "geomean latency over the run's benchmarked shapes, against the best earlier step");
    g.set("metrics", Value(json::Array{metric}));
    g.set("regressions", Value::array());
  } else {
    g = qualitative_gain("performance");
    c.out.thin.push_back("worth.gain.pct");
  }
  const auto &corr = m.get("correctness");
  if (const auto *status = corr.get("status").as_string()) {
    Value cv = Value::object();
    cv.set("observed", *status);
    if (corr.get("max_abs_err").is_number()) cv.set("max_diff", corr.get("max_abs_err"));
    g.set("correctness", cv);
  }
  const auto &comparable = m.get("comparable_with_the_store");
  if (comparable.is_bool()) {
    g.set("comparable", comparable);
    if (!*comparable.as_bool())
      g.set("note", "percentages are measured against this run's own starting point, not against the store");
  }
  return g;
}

// The levers of `realised` that a step whose own commits run nothing may
// still claim: an earlier kept step of its span names the same lever (at the
// value this step's text states, when it states one), so the step re-measured
// that change. A lever realised by a step that does not name it (a type-hint
// tidy-up touching a `residual` argument) is not this claim's.
std::vector<std::string> re_measured(const levers::LeverVocabulary &vocabulary, const std::string &change,
                                     const std::vector<std::string> &realised,
                                     const std::vector<std::string> &earlier) {
  auto value_of = [&](const std::string &text, const std::string &lever) -> std::optional<std::string> {
    for (const auto &s : levers::settings_in(vocabulary, levers::claim_of(text)))
      if (s.lever == lever) return s.value;
    return std::nullopt;
  };
  std::vector<std::string> out;
  for (const auto &lever : realised) {
    auto mine = value_of(change, lever);
    for (const auto &e : earlier) {
      auto theirs = value_of(e, lever);
      if (theirs && (!mine || mine->empty() || *mine == *theirs)) {
        out.push_back(lever);
        break;
      }
    }
  }
  return out;
}

// Whether a recorded caveat can tell a reader when it applies: four words
// or more, and not an error message or a stack trace.
bool states_a_condition(const std::string &caveat) {
  static const text::Regex error_text(R"((?:\b[A-Z]\w*(?:Error|Exception)\b|\bTraceback\b|^\s*error\b))");
  std::size_t words = 0;
  bool in_word = false;
  for (char ch : caveat) {
    bool w = !std::isspace(static_cast<unsigned char>(ch));
    if (w && !in_word) ++words;
    in_word = w;
  }
  return words >= 4 && !error_text.contains(caveat);
}

Value draft_strategy(Context &c) {
  std::string change = required_string(c.af.get("what_the_run_said").get("change"), "payload.change",
                                       "the run recorded no description of its change");
  // No change, no strategy: the gain must be bought by code that runs.
  std::optional<DiffReading> diff;
  if (!c.packet.code.empty() && c.af.get("diff_file").is_string()) diff = read_diff(c.packet.code, code_after(c));
  std::string range = range_of(c.prov);
  if (!diff || diff->running_lines() == 0) {
    if (diff && !diff->unread_names.empty())
      refuse("payload.implementation.snippet", "no code change that runs " + range + ": the code lines it changes " +
                                                   "assign `" + diff->unread_names.front() +
                                                   "`, which no line of the kernel reads");
    if (diff && !diff->dead_definitions.empty())
      refuse("payload.implementation.snippet", "no code change that runs " + range +
                                                   ": the executable lines it adds "
                                                   "define `" +
                                                   diff->dead_definitions.front() + "`, which nothing calls");
    refuse("payload.implementation.snippet",
           "no code change " + range +
               (diff ? ": the diff changes only comments, docstrings, blank lines or version stamps" : ""));
  }
  // A gain no larger than the run's own spread of re-measurements of
  // unchanged code is not established (the same rule as a failed lever's).
  const auto &m = c.af.get("measurements");
  const auto &improved = m.get("improve_pct_vs_best_so_far"), &band = m.get("same_code_spread_pct");
  if (improved.is_number() && band.is_number() && *improved.as_number() <= *band.as_number())
    refuse("worth.gain.pct", "the step measured " + improved.python_str() +
                                 " % faster than its best-so-far, inside the run's own spread of re-measurements "
                                 "of unchanged code (" +
                                 band.python_str() + " %): the gain is not established");
  if (auto dead = described_dead_code(*diff, change))
    refuse("payload.change", "the change text describes `" + *dead + "`, which the diff " + range +
                                 " defines but never calls: the measured gain is not its");
  // A claim must be visible in the code: every lever the change text names
  // that has code forms for this DSL is changed by a running line.
  const std::string dsl = c.af.get("operator").string_or("dsl");
  auto levers = read_levers(*diff, change, c.rules.retrieval.levers, dsl);
  if (!levers.missing.empty())
    refuse("payload.change", "the change text claims " + quoted_list(levers.missing) + ", but no running change " +
                                 range + " changes its code: the measured gain is not borne out by the diff");
  // The step's own span: its own commits must change code that runs; a
  // diff that also holds earlier kept steps names them and credits the
  // gain to all of them together.
  const auto &span = c.af.get("span");
  std::vector<std::string> earlier = strings_at(span.get("earlier_kept_steps"), "change");
  // A step whose own commits run nothing may still claim a lever an earlier
  // kept step of its span changed (a change kept and re-measured): the diff
  // must then bear that lever out. Otherwise the gain is not its claim's.
  bool own_runs =
      !span.get("this_step_changes_running_code").is_bool() || *span.get("this_step_changes_running_code").as_bool();
  // With no earlier kept step in the span, the diff's running code is what
  // was measured (a reverted attempt's code the run kept after all): a
  // claimed lever it realises is borne out.
  if (!own_runs && (earlier.empty() ? levers.realised.empty()
                                    : re_measured(c.rules.retrieval.levers, change, levers.realised, earlier).empty()))
    refuse("payload.change",
           "this step's own commits change no code that runs, and no lever its change text names "
           "is both changed " +
               range + " and named (at the same setting) by an earlier kept step: the gain belongs to " +
               (earlier.empty()
                    ? std::string("other steps")
                    : "the " + std::to_string(earlier.size()) + " earlier kept step(s) its diff also holds"));
  // A reason the run gives on many steps (its template's expected impact,
  // a sentence the run's other strategies share) is not this step's.
  const auto &said_here = c.af.get("what_the_run_said");
  std::size_t impact_steps = said_here.get("expected_impact_stated_by_steps").as_int().value_or(0) > 0
                                 ? static_cast<std::size_t>(*said_here.get("expected_impact_stated_by_steps").as_int())
                                 : 0;
  auto is_template = [&](const std::string &source, const std::string &text) {
    if (source == "what_the_run_said.expected_impact" && impact_steps >= c.rules.template_min_steps) return true;
    const auto &ex = c.rules.excluded_mechanisms;
    return std::find(ex.begin(), ex.end(), text::folded(text)) != ex.end();
  };
  auto mech = strategy_mechanism(c.af, c.rules.causal, is_template);
  if (!mech)
    refuse("payload.mechanism",
           impact_steps >= c.rules.template_min_steps
               ? "the packet states no reason of this step's own: its expected impact is the run's template default "
                 "(stated on " +
                     std::to_string(impact_steps) +
                     " steps), and it has no causal sentence, profiler conclusion of the kernel under test, "
                     "rationale of a direction taken up, or causal change text"
               : "the packet states no reason for the gain: no causal sentence, expected impact, profiler "
                 "conclusion of the kernel under test, rationale of a direction taken up, or causal change text");
  Value r = record_head(c);
  Value p = Value::object();
  p.set("goal", "Make " + (c.family.empty() ? std::string("this operator") : c.family) + " faster on " + c.gpu);
  p.set("problem", problem_of(c));
  const auto &bo = c.af.get("builds_on");
  bool baseline = bo.get("was_the_untouched_baseline").truthy();
  std::string approach;
  if (auto prev = text_of(bo.get("previous_approach")))
    approach = baseline ? "the untouched baseline: " + *prev : *prev;
  else if (baseline)
    approach = "the untouched baseline";
  else {
    approach = "an earlier step of this run (the packet does not describe it)";
    c.out.thin.push_back("payload.trace.builds_on.approach");
  }
  Value builds_on = Value::object();
  builds_on.set("approach", approach);
  builds_on.set("is_baseline", baseline);
  Value trace = Value::object();
  trace.set("builds_on", builds_on);
  p.set("trace", trace);
  if (!earlier.empty()) {
    // Each kept step of the span with its own change text: the gain is
    // theirs together.
    std::string with = change;
    if (!with.empty() && with.back() != '.') with += '.';
    // No count and no numbering: a number the packet does not hold is a
    // fabrication (the no-fabrication gate).
    // The steps are listed as the run kept them; a later step may have
    // undone one, so the record does not claim their code is in the diff.
    with += " Measured together with the kept step" + std::string(earlier.size() > 1 ? "s" : "") +
            " between the best-so-far and it (the diff shows what of them remains): ";
    for (std::size_t i = 0; i < earlier.size(); ++i)
      with += (i ? "; " : "") + std::string(text::rstrip_chars(earlier[i], " ."));
    with += ".";
    p.set("change", with);
  } else {
    p.set("change", change);
  }
  const auto &vocabulary = c.rules.retrieval.levers;
  // Settings of other levers the diff also moves (`NUM_STAGES` beside a
  // claimed block size): named, so the gain is not read as the claim's alone.
  std::string accounts = change + "\n" + mech->text;
  for (const auto &e : earlier) accounts += "\n" + e;
  auto others = other_settings_changed(*diff, vocabulary.named_in(accounts), vocabulary, dsl);
  if (!others.empty()) {
    std::vector<std::string> names;
    for (const auto &o : others) names.push_back(o.name);
    std::string with = *p.get("change").as_string();
    if (!with.empty() && with.back() != '.') with += '.';
    with += " The diff also changes " + quoted_list(names) +
            ", which the run's account does not name: the gain is theirs together.";
    p.set("change", with);
  }
  p.set("mechanism", mech->text);
  auto hunk = choose_diff_hunks(
      *diff, change, [&](const ChangedLine &line) { return changes_lever(line, levers.realised, vocabulary, dsl); });
  Value impl = Value::object();
  impl.set("format", kDiffFormat);
  impl.set("snippet", hunk->text);
  p.set("implementation", impl);
  p.set("cost", cost_of(*diff));
  Value next = Value::array();
  if (const auto *dirs = c.af.get("open_directions").as_array())
    for (const auto &d : *dirs)
      if (auto t = text_of(d.get("direction"))) next.push_back(*t);
  if (!next.size()) c.out.thin.push_back("payload.next_steps");
  p.set("next_steps", next);
  // The caveats the run recorded for this very step, verbatim, when they
  // state a condition (not "slow", not an exception's message) about a
  // lever this change claims: a step record also carries other levers'
  // pitfalls, copied forward, and their fixes ("kept 1") may contradict
  // this record.
  Value applies = Value::array();
  if (const auto *pits = c.af.get("pitfalls_recorded_here").as_array())
    for (const auto &e : *pits)
      if (auto t = text_of(e.get("pitfall")); t && states_a_condition(*t)) {
        auto named = vocabulary.named_in(*t);
        bool mine = std::any_of(named.begin(), named.end(), [&](const std::string &l) {
          return std::find(levers.claimed.begin(), levers.claimed.end(), l) != levers.claimed.end();
        });
        if (mine) applies.push_back(*t);
      }
  if (applies.size()) p.set("applies_when", applies);
  r.set("payload", p);

  // Tags from the change: the levers it claims that the code bears out (or
  // that no code can show, like a fusion), never the step's category.
  RecordTerms terms(c.rules.retrieval);
  for (const auto &l : vocabulary.prose().tags_in(change)) {
    bool changed = false;
    for (const auto &h : diff->hunks)
      for (const auto &line : h.running) changed = changed || changes_lever(line, {l}, vocabulary, dsl);
    if (changed || !vocabulary.checkable(l, dsl)) terms.tag(l);
  }
  for (const auto &n : hunk->names)
    if (changes_name(*diff, n))
      if (auto t = tag_of(n); t.size() >= 4) terms.tag(t);
  const auto &said = c.af.get("what_the_run_said");
  std::vector<std::string> situation = strings_at(said.get("directions_taken_up"), "rationale");
  for (const auto &s : strings_at(said.get("causal_sentences"))) situation.push_back(without_reason_label(s));
  if (auto t = text_of(said.get("expected_impact"))) situation.push_back(*t);
  // What the run saw before the change: a report of the changed kernel
  // describes the state after it, so it names no symptom of this record.
  if (mech->source != "profiler.conclusion") situation.push_back(mech->text);
  situation.push_back(change);
  terms.symptoms_in(situation);
  // No symptom named: the search that should find this record is for the
  // lever it pulls (the code bears out, else the text claims, else the
  // claim's own words), on this operator and hardware.
  if (!terms.has_triggers()) {
    std::string what = !levers.realised.empty() ? lever_words(levers.realised)
                       : !levers.claimed.empty()
                           ? lever_words(levers.claimed)
                           : std::string(text::rstrip_chars(text::strip(levers::claim_of(change)), " .;:,"));
    if (!what.empty())
      terms.trigger("considering " + what + " for " + (c.family.empty() ? std::string("this operator") : c.family) +
                    " on " + c.gpu);
  }
  set_terms(r, terms);

  bool measured = c.af.get("measurements").get("geomean_us").is_number();
  bool cites_capture = c.prov.get("ncu_dirs").size() > 0;
  const char *basis = mech->source == "profiler.conclusion" && cites_capture ? "profiler"
                      : measured                                             ? "bench-only"
                                                                             : "none";
  Value ev = Value::object();
  ev.set("summary", summary_of(c, measured ? "measured" : "inferred", basis,
                               "no bottleneck class is claimed: otm-draft does not classify bottlenecks"));
  ev.set("raw", raw_of(c, effect_of(c, true), std::string(basis) == "profiler"));
  r.set("evidence", ev);
  Value worth = Value::object();
  worth.set("rank", rank_placeholder());
  Value gain = strategy_gain(c);
  if (!earlier.empty()) {
    std::string note = "measured from the best-so-far across this step and the kept step" +
                       std::string(earlier.size() > 1 ? "s" : "") + " before it, together; not this step's alone";
    if (const auto *n = gain.get("note").as_string()) note = *n + "; " + note;
    gain.set("note", note);
  }
  worth.set("gain", gain);
  r.set("worth", worth);
  return r;
}

// "correctness FAIL (max_abs_err 0.0031, max_rel_err 0.0044)": what the
// step's own correctness check observed, when it failed.
std::optional<std::string> observed_failure(Context &c) {
  if (auto gate = text_of(c.af.get("what_the_run_said").get("gate_verdict"))) return gate;
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

// Whether the step's own correctness check passed (a status that is not a
// failure, and no quality-gate verdict).
bool correctness_passed(const Value &af) {
  const auto &status = af.get("measurements").get("correctness").get("status");
  if (status.is_null() || (status.is_string() && text::strip(*status.as_string()).empty())) return false;
  return !ladder::correctness_failed(status) && !text_of(af.get("what_the_run_said").get("gate_verdict"));
}

// Issue 25: a failed lever is an established fact only when the run's code
// and measurements agree with it. Refuses one the run kept as a win (a kept
// step stating the same setting, before or after it, or the setting the
// attempt moved away from), one whose attempt changed no running code or not
// the lever's, and an accuracy failure the step's own correctness check
// contradicts.
void check_anti_against_the_run(Context &c, const AntiFact &fact, const std::optional<DiffReading> &diff) {
  std::vector<std::string> later = strings_at(c.af.get("kept_in_the_run_with_the_same_setting"), "change");
  if (!later.empty())
    refuse("payload.attempted", "a kept step of this run states the same setting of this lever (\"" +
                                    std::string(text::rstrip_chars(later.front(), " .")) +
                                    "\"): that the lever fails is not the run's finding");
  // A slowdown inside the run's own spread of re-measurements of unchanged
  // code (or a speed-up) is noise, not a failed lever.
  const auto &m = c.af.get("measurements");
  const auto &slower = m.get("slower_than_tried_on_pct"), &band = m.get("same_code_spread_pct");
  if (fact.verdict == "not-worth-it-here" && slower.is_number() && *slower.as_number() <= 0)
    refuse("payload.verdict", "the attempt measured no slower than the code it was tried on (" + slower.python_str() +
                                  " %): the failure is not established");
  if (fact.verdict == "not-worth-it-here" && slower.is_number() && band.is_number() &&
      *slower.as_number() <= *band.as_number())
    refuse("payload.verdict", "the attempt measured " + slower.python_str() +
                                  " % slower than the code it was tried on, inside the run's own spread of "
                                  "re-measurements of unchanged code (" +
                                  band.python_str() + " %): the failure is not established");
  if (fact.verdict == "accuracy-gate/ceiling" && correctness_passed(c.af))
    refuse("payload.verdict", "the account says the lever failed on accuracy, but the step's own correctness check "
                              "passed: the measurement contradicts it");
  const std::string range = range_of(c.prov);
  bool computed = !c.prov.get("diff_from").is_null() || !c.prov.get("diff_to").is_null();
  if (!diff) {
    if (computed)
      refuse("payload.attempted", "the attempt changes nothing in the kernel " + range + ": the lever was never tried");
    return; // a trace without kernel code: only the run's account
  }
  if (diff->running_lines() == 0)
    refuse("payload.attempted", "the attempt changes no code that runs " + range +
                                    " (only comments, docstrings, stamps or values nothing reads): the lever was "
                                    "never tried");
  const std::string dsl = c.af.get("operator").string_or("dsl");
  const auto &vocabulary = c.rules.retrieval.levers;
  auto levers = read_levers(*diff, fact.attempted, vocabulary, dsl);
  const std::string_view claim = levers::claim_of(fact.attempted);
  auto away = settings_moved_away(*diff, levers::settings_in(vocabulary, claim), vocabulary, dsl);
  if (!away.empty())
    refuse("payload.attempted",
           "the account says \"" +
               std::string(claim.substr(away.front().begin, away.front().end - away.front().begin)) +
               "\" fails, but the attempt " + range + " changes that lever away from " + away.front().value +
               ": the code it was tried on already had that setting, which the run kept");
  if (!levers.missing.empty())
    refuse("payload.attempted", "the account names " + quoted_list(levers.missing) + ", but no running change " +
                                    range + " of the attempt changes its code: the lever failed is not the one tried");
  // A failure measured over an attempt that also moved other levers'
  // settings is not the named lever's alone.
  auto others =
      other_settings_changed(*diff, vocabulary.named_in(fact.attempted + "\n" + fact.mechanism.text), vocabulary, dsl);
  if (!others.empty()) {
    std::vector<std::string> names;
    for (const auto &o : others) names.push_back(o.name);
    refuse("payload.attempted", "the attempt " + range + " also changes " + quoted_list(names) +
                                    ", which the account does not name: the failure cannot be put on its lever alone");
  }
  // An established fact about code needs the code: an account whose lever
  // the attempt's running changes do not show cannot be checked.
  if (levers.realised.empty())
    refuse("payload.attempted", "the account names no lever whose code a running change " + range +
                                    " of the attempt changes: what was tried cannot be checked against it");
}

// The transferable directive: not to expect the lever to pay here, and
// what the run did instead. Not the mechanism: that is the fact's own field.
std::string anti_lesson(const Context &c, const AntiFact &fact) {
  std::string attempted(text::rstrip_chars(text::strip(fact.attempted), " .;:,"));
  std::string where = (c.family.empty() ? std::string("this operator") : c.family) + " on " + c.gpu;
  std::string lesson;
  if (fact.verdict == "api-limitation")
    lesson = "Do not plan on " + attempted + " for " + where + ": the toolchain the run used cannot express it.";
  else if (fact.verdict == "accuracy-gate/ceiling")
    lesson = "Do not take " + attempted + " for " + where + " without an accuracy check: it failed the run's.";
  else
    lesson = "Do not expect " + attempted + " to pay off for " + where + "; the run reverted it.";
  if (fact.fix) lesson += " Instead: " + *fact.fix;
  return lesson;
}

Value draft_anti(Context &c) {
  auto res = anti_fact(c.af, c.rules.retrieval.levers);
  if (!res.fact) refuse(res.gap->field, res.gap->why);
  const auto &fact = *res.fact;
  std::optional<DiffReading> diff;
  if (!c.packet.code.empty() && c.af.get("diff_file").is_string()) diff = read_diff(c.packet.code, code_after(c));
  check_anti_against_the_run(c, fact, diff);
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
  if (!fact.condition.shape_regime.empty()) cond.set("shape_regime", fact.condition.shape_regime);
  if (!fact.condition.dtype.empty()) cond.set("dtype", fact.condition.dtype);
  if (!fact.condition.toolchain.empty()) cond.set("toolchain", fact.condition.toolchain);
  Value ef = Value::object();
  ef.set("condition", cond);
  ef.set("mechanism", fact.mechanism.text);
  p.set("established_fact", ef);
  if (auto observed = observed_failure(c))
    p.set("observed", *observed);
  else if (fact.stated_effect)
    p.set("observed", "the run recorded " + *fact.stated_effect + " for this lever");
  // The failed attempt's code, when the quoted running changes change the
  // lever's code or hold a name the account gives it.
  const std::string dsl = c.af.get("operator").string_or("dsl");
  const auto &vocabulary = c.rules.retrieval.levers;
  std::vector<std::string> tried;
  if (diff) tried = read_levers(*diff, fact.attempted, vocabulary, dsl).realised;
  if (diff) {
    auto hunk = choose_diff_hunks(*diff, fact.attempted,
                                  [&](const ChangedLine &line) { return changes_lever(line, tried, vocabulary, dsl); });
    if (hunk && (hunk->claimed_code_quoted || !hunk->names.empty())) {
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
  terms.symptoms_in({fact.mechanism.text});
  set_terms(r, terms);
  Value ev = Value::object();
  ev.set("summary", summary_of(c, "inferred", "none", "the failure is stated by the run, not profiled"));
  ev.set("raw", raw_of(c, effect_of(c, false)));
  r.set("evidence", ev);
  Value worth = Value::object();
  worth.set("rank", rank_placeholder());
  worth.set("gain", qualitative_gain("none"));
  r.set("worth", worth);
  auto problems = record::established_fact_problems(r);
  if (!problems.empty()) refuse("payload.established_fact", problems.front());
  return r;
}

Value draft_reference(Context &c) {
  std::optional<ReferenceKernelCode> code;
  if (!c.packet.code.empty() && c.af.get("kernel_file").is_string()) code = reference_kernel_code(c.packet.code);
  if (!code)
    refuse("payload.implementation.snippet",
           c.packet.code.empty() ? "the packet carries no kernel file"
                                 : "the kernel file has no JIT- or kernel-decorated entry-point function and no "
                                   "__global__ function");
  // A reference kernel is for reading: one that needs more lines than the
  // limit to run as quoted is not one.
  if (code->quoted_lines > c.rules.max_reference_kernel_lines)
    refuse("payload.implementation.snippet",
           "the kernel needs " + std::to_string(code->quoted_lines) +
               " lines to run as quoted (entry point, helpers, constants, imports, launch), more than "
               "limits.max_reference_kernel_lines (" +
               std::to_string(c.rules.max_reference_kernel_lines) + ")");
  Value r = record_head(c);
  Value p = Value::object();
  std::string dsl = c.af.get("operator").string_or("dsl", "this DSL");
  p.set("goal", "Read a working " + dsl + " implementation of " +
                    (c.family.empty() ? std::string("this operator") : c.family) + " on " + c.gpu);
  p.set("problem", problem_of(c));
  std::string approach;
  // The version's change text describes the kernel only when its own
  // commits change code that runs; otherwise it names a step whose code is
  // elsewhere (or nowhere) and the kernel is credited to the run.
  const auto &own = c.af.get("span").get("this_step_changes_running_code");
  auto change = text_of(c.af.get("what_the_run_said").get("change"));
  if (change && !(own.is_bool() && !*own.as_bool()))
    approach = *change;
  else if (c.packet.doc.string_or("seg_kind") == "final-kernel")
    approach = "the run's final kernel";
  else
    approach = "a milestone snapshot of this run";
  Value builds_on = Value::object();
  builds_on.set("approach", approach);
  Value trace = Value::object();
  trace.set("builds_on", builds_on);
  p.set("trace", trace);
  Value impl = Value::object();
  impl.set("format", kSourceFormat);
  impl.set("snippet", code->snippet);
  impl.set("core_kernel_name", code->name);
  if (!code->dispatch.empty()) impl.set("dispatch_snippet", code->dispatch);
  if (!code->launched) c.out.thin.push_back("payload.implementation.dispatch_snippet");
  p.set("implementation", impl);
  r.set("payload", p);
  auto terms = terms_for(c);
  terms.techniques_in(approach);
  terms.tag(tag_of(dsl));
  terms.trigger("a working " + dsl + " starting point for " +
                (c.family.empty() ? std::string("this operator") : c.family) + " on " + c.gpu + " is needed");
  set_terms(r, terms);
  bool measured = c.af.get("measurements").get("geomean_us").is_number();
  Value ev = Value::object();
  ev.set("summary", summary_of(c, measured ? "measured" : "inferred", measured ? "bench-only" : "none",
                               "no bottleneck class is claimed: otm-draft does not classify bottlenecks"));
  ev.set("raw", raw_of(c, effect_of(c, false)));
  r.set("evidence", ev);
  Value worth = Value::object();
  worth.set("rank", rank_placeholder());
  worth.set("gain", qualitative_gain("none"));
  r.set("worth", worth);
  return r;
}

void check_placement(const Value &record, const Value &target) {
  std::filesystem::path want = workspace::kRecordsDirName;
  try {
    want /= record::record_dir(record);
  } catch (const record::LayoutError &e) {
    refuse("retrieval.scope", e.what());
  }
  std::filesystem::path given = target.string_or("output_dir");
  if (want.lexically_normal() != given.lexically_normal())
    refuse("target.output_dir", "the packet's output_dir '" + given.string() +
                                    "' is not where the record's scope files it ('" + want.string() +
                                    "'): rebuild the packet");
}

} // namespace

DraftRules DraftRules::from_config(const config::Config &config) {
  DraftRules r;
  r.causal = record::CausalRule::from_json(config.data().get("causal_sentences"), config.source_name());
  r.retrieval = RetrievalTerms::from_config(config);
  r.max_reference_kernel_lines = config.limits().max_reference_kernel_lines;
  const auto &b = config.data().get("boilerplate");
  std::string where = config.source_name() + ": boilerplate";
  if (!b.is_null()) {
    if (!b.is_object()) throw Error(ErrorKind::Usage, where + " must be an object");
    const auto &steps = b.get("template_min_steps");
    if (!steps.is_null()) {
      if (!steps.is_int() || *steps.as_int() < 2)
        throw Error(ErrorKind::Usage, where + ".template_min_steps must be an integer of at least 2");
      r.template_min_steps = static_cast<std::size_t>(*steps.as_int());
    }
    const auto &share = b.get("max_mechanism_share");
    if (!share.is_null()) {
      if (!share.is_number() || *share.as_number() <= 0 || *share.as_number() > 1)
        throw Error(ErrorKind::Usage, where + ".max_mechanism_share must be a number in (0, 1]");
      r.max_mechanism_share = *share.as_number();
    }
  }
  return r;
}

const DraftRules &DraftRules::defaults() {
  static const DraftRules rules = from_config(config::Config::defaults());
  return rules;
}

Draft draft_record(const Packet &packet, const DraftRules &rules) {
  Draft out;
  const auto &target = packet.target();
  const auto &af = packet.agent_facing();
  Context c{packet, rules, target, af, packet.provenance(), packet.record_type(), "", "", "", "", out};
  try {
    if (c.type != "strategy" && c.type != "anti-strategy" && c.type != "reference-kernel")
      refuse("type", "record_type '" + c.type + "' is not one a trace can evidence");
    if (!target.is_object() || !af.is_object()) refuse("target", "the packet has no target or agent_facing layer");
    c.id = required_string(target.get("id"), "id", "target.id is missing: the drafter never mints an id");
    if (!record::is_valid_id(c.id)) refuse("id", "target.id '" + c.id + "' is not a valid record id");
    c.family = target.get("scope").string_or("operator_family");
    for (const char *k : {"source_repo", "version", "git_commit"})
      required_string(c.prov.get(k), std::string("evidence.raw.") + k,
                      std::string("provenance.") + k + " is missing: the provenance gate could not resolve the record");
    c.gpu = required_string(af.get("operator").get("gpu"), "payload.problem.target", "operator.gpu is missing");
    c.what = required_string(af.get("operator").get("what_it_computes"), "payload.problem.statement",
                             "the packet does not say what the operator computes");
    Value record;
    if (c.type == "strategy")
      record = draft_strategy(c);
    else if (c.type == "anti-strategy")
      record = draft_anti(c);
    else
      record = draft_reference(c);
    check_placement(record, target);
    out.record = std::move(record);
  } catch (const Refused &r) {
    out.refusal = r.r;
    out.thin.clear();
  }
  return out;
}

} // namespace otm::distill
