#include "distill/drafter.hpp"

#include "distill/mechanism_source.hpp"
#include "distill/snippet_choice.hpp"
#include "record/established_fact.hpp"
#include "record/id_format.hpp"
#include "record/leak_shapes.hpp"
#include "record/store_layout.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

namespace {

using json::Value;

inline constexpr const char *kDiffFormat = "unified-diff (verbatim; '-' = before this step, '+' = after)";
inline constexpr const char *kSourceFormat = "source (verbatim)";

struct Refused {
  DraftRefusal r;
};

[[noreturn]] void refuse(std::string field, std::string why) { throw Refused{{std::move(field), std::move(why), ""}}; }

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

// The technique slug: the id's last dotted segment without its
// discriminator (spec partition.md §7).
std::string technique_of(const std::string &id) {
  auto dot = id.rfind('.');
  std::string last = dot == std::string::npos ? id : id.substr(dot + 1);
  if (record::parse_discriminator(last)) {
    auto dash = last.rfind('-');
    if (dash != std::string::npos) last = last.substr(0, dash);
  }
  return last;
}

struct Context {
  const Packet &packet;
  const Value &target, &af, &prov;
  std::string type, id, family, gpu, what;
  Draft &out;
};

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
  r.set("technique_tags", Value::strings({technique_of(c.id)}));
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

Value draft_strategy(Context &c) {
  std::string change = required_string(c.af.get("what_the_run_said").get("change"), "payload.change",
                                       "the run recorded no description of its change");
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
  p.set("change", change);
  auto mech = strategy_mechanism(c.af);
  if (!mech) c.out.thin.push_back("payload.mechanism");
  p.set("mechanism", mech ? mech->text : std::string());
  Value impl = Value::object();
  Value cost = Value::object();
  std::optional<DiffSnippet> hunk;
  if (!c.packet.code.empty() && c.af.get("diff_file").is_string()) hunk = choose_diff_hunk(c.packet.code);
  if (hunk) {
    impl.set("format", kDiffFormat);
    impl.set("snippet", hunk->text);
    bool one_line = hunk->hunks == 1 && hunk->changed_lines <= 2;
    cost.set("edit_scope", one_line ? "one-line" : "kernel-rewrite");
    cost.set("risk", one_line ? "low" : "med");
    cost.set("risk_basis", "derived by otm-draft from the size of the diff, not judged");
  } else {
    impl.set("format", "none");
    c.out.thin.push_back("payload.implementation.snippet");
    cost.set("edit_scope", "kernel-rewrite");
    cost.set("risk", "med");
    cost.set("risk_basis", "the packet carries no diff; otm-draft's default, not judged");
  }
  p.set("implementation", impl);
  p.set("cost", cost);
  Value next = Value::array();
  if (const auto *dirs = c.af.get("open_directions").as_array())
    for (const auto &d : *dirs)
      if (auto t = text_of(d.get("direction"))) next.push_back(*t);
  if (!next.size()) c.out.thin.push_back("payload.next_steps");
  p.set("next_steps", next);
  r.set("payload", p);
  bool measured = c.af.get("measurements").get("geomean_us").is_number();
  bool cites_capture = c.prov.get("ncu_dirs").size() > 0;
  const char *basis = mech && mech->source == "profiler.conclusion" && cites_capture ? "profiler"
                      : measured                                                     ? "bench-only"
                                                                                     : "none";
  Value ev = Value::object();
  ev.set("summary", summary_of(c, measured ? "measured" : "inferred", basis,
                               "no bottleneck class is claimed: otm-draft does not classify bottlenecks"));
  ev.set("raw", raw_of(c, effect_of(c, true), std::string(basis) == "profiler"));
  r.set("evidence", ev);
  Value worth = Value::object();
  worth.set("rank", rank_placeholder());
  worth.set("gain", strategy_gain(c));
  r.set("worth", worth);
  return r;
}

Value draft_anti(Context &c) {
  auto res = anti_fact(c.af);
  if (!res.fact) refuse(res.gap->field, res.gap->why);
  const auto &fact = *res.fact;
  Value r = record_head(c);
  Value p = Value::object();
  p.set("goal", "Know which lever fails for " + (c.family.empty() ? std::string("this operator") : c.family) + " on " +
                    c.gpu + ", and why");
  p.set("problem", problem_of(c));
  p.set("attempted", *text_of(c.af.get("the_failed_lever")));
  p.set("verdict", fact.verdict);
  p.set("lesson", fact.mechanism.text);
  Value cond = Value::object();
  if (!fact.condition.sm_arch.empty()) cond.set("sm_arch", fact.condition.sm_arch);
  if (!fact.condition.shape_regime.empty()) cond.set("shape_regime", fact.condition.shape_regime);
  if (!fact.condition.dtype.empty()) cond.set("dtype", fact.condition.dtype);
  if (!fact.condition.toolchain.empty()) cond.set("toolchain", fact.condition.toolchain);
  Value ef = Value::object();
  ef.set("condition", cond);
  ef.set("mechanism", fact.mechanism.text);
  p.set("established_fact", ef);
  if (auto observed = text_of(c.af.get("what_the_run_said").get("gate_verdict"))) p.set("observed", *observed);
  if (auto fix = text_of(c.af.get("how_it_was_fixed"))) p.set("would_retry_if", *fix);
  r.set("payload", p);
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
  std::optional<EntryFunction> fn;
  if (!c.packet.code.empty() && c.af.get("kernel_file").is_string()) fn = choose_entry_function(c.packet.code);
  if (!fn)
    refuse("payload.implementation.snippet",
           c.packet.code.empty() ? "the packet carries no kernel file"
                                 : "the kernel file has no JIT- or kernel-decorated entry-point function");
  Value r = record_head(c);
  Value p = Value::object();
  std::string dsl = c.af.get("operator").string_or("dsl", "this DSL");
  p.set("goal", "Read a working " + dsl + " implementation of " +
                    (c.family.empty() ? std::string("this operator") : c.family) + " on " + c.gpu);
  p.set("problem", problem_of(c));
  std::string approach;
  if (auto change = text_of(c.af.get("what_the_run_said").get("change")))
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
  impl.set("snippet", fn->text);
  impl.set("core_kernel_name", fn->name);
  p.set("implementation", impl);
  r.set("payload", p);
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
  std::filesystem::path want = "records";
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

Draft draft_record(const Packet &packet) {
  Draft out;
  const auto &target = packet.target();
  const auto &af = packet.agent_facing();
  Context c{packet, target, af, packet.provenance(), packet.record_type(), "", "", "", "", out};
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
