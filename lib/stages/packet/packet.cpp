#include "packet/packet.hpp"

#include <algorithm>

#include "packet/instructions.hpp"
#include "packet/report_conclusion.hpp"
#include "record/store_layout.hpp"
#include "scrub/scrubber.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/step_record.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

namespace otm::packet {

namespace {

std::string string_form(const json::Value &v) {
  if (const auto *s = v.as_string()) return *s;
  if (v.is_array() || v.is_object()) return json::to_line(v);
  return v.python_str();
}

// "Scrubbed": null or "" stays null; anything else is a (possibly empty) string.
json::Value scrubbed(scrub::Scrubber &s, const json::Value &v) {
  if (v.is_null() || (v.is_string() && v.as_string()->empty())) return {};
  return s.prose(string_form(v));
}

// Axis tables and hints are not prose but may still name private things:
// their strings get the comment substitution (no tidy-up, numbers kept).
json::Value scrub_strings(scrub::Scrubber &s, const json::Value &v) {
  if (const auto *str = v.as_string()) return s.comment(*str);
  if (const auto *arr = v.as_array()) {
    json::Value out = json::Value::array();
    for (const auto &e : *arr) out.push_back(scrub_strings(s, e));
    return out;
  }
  if (const auto *obj = v.as_object()) {
    json::Value out = json::Value::object();
    for (const auto &[k, e] : *obj) out.set(s.comment(k), scrub_strings(s, e));
    return out;
  }
  return v;
}

json::Value shape_table(scrub::Scrubber &s, const json::Value &by_shape) {
  static const text::Regex hash_prefix(R"(^([0-9a-f]{8})\b)");
  json::Value rows = json::Value::array();
  const auto *obj = by_shape.as_object();
  if (!obj) return rows;
  std::vector<const json::Member *> sorted;
  for (const auto &m : *obj) sorted.push_back(&m);
  // Numbers ascending; non-numeric latencies after them in table order.
  std::stable_sort(sorted.begin(), sorted.end(), [](const json::Member *a, const json::Member *b) {
    auto x = a->second.as_number(), y = b->second.as_number();
    if (x && y) return *x < *y;
    return x.has_value() && !y.has_value();
  });
  for (const auto *m : sorted) {
    auto pre = hash_prefix.search(m->first);
    json::Value row = json::Value::object();
    row.set("shape", s.label(pre ? std::string((*pre)[1]) : m->first));
    row.set("latency_us", m->second);
    rows.push_back(std::move(row));
  }
  return rows;
}

// The scalars of `v` depth-first in key order (nulls skipped, Python str),
// each appended to `out` after a "\n" when `parts` already counts one.
void collect(const json::Value &v, std::string &out, std::size_t &parts) {
  if (const auto *obj = v.as_object()) {
    for (const auto &[_, e] : *obj) collect(e, out, parts);
  } else if (const auto *arr = v.as_array()) {
    for (const auto &e : *arr) collect(e, out, parts);
  } else if (!v.is_null()) {
    if (parts++) out += '\n';
    if (const auto *str = v.as_string())
      out += *str;
    else
      out += v.python_str();
  }
}

std::string gpu_of(const json::Value &meta) {
  std::string product = meta.get("product").is_string() ? meta.string_or("product") : "";
  std::string upper = product.empty() ? "ANY" : product;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  return upper + " (" + meta.string_or("vendor") + " " + meta.string_or("arch") + ")";
}

json::Value target_of(const json::Value &seg, const Context &ctx) {
  json::Value scope = json::Value::object();
  for (const char *k : {"vendor", "arch", "product", "dsl"}) scope.set(k, seg.get(k));
  scope.set("operator_family", seg.get("operator_slug"));
  json::Value placement = json::Value::object();
  placement.set("type", seg.get("record_type"));
  json::Value retrieval = json::Value::object();
  retrieval.set("scope", scope);
  placement.set("retrieval", retrieval);
  json::Value t = json::Value::object();
  t.set("id", seg.get("id"));
  t.set("episode_key", seg.get("episode_key"));
  t.set("output_dir", workspace::store_relpath(record::record_dir(placement)));
  t.set("scope", scope);
  t.set("workload_family", seg.get("workload_family"));
  t.set("level", "operator");
  t.set("schema", ctx.schema);
  return t;
}

// What the diff file holds, for the agent (no digits: the no-fabrication
// pool stays as it was).
std::string diff_shows(const KernelDiff &d, const json::Value &seg) {
  std::string what;
  switch (d.range) {
  case DiffRange::MeasuredAgainst:
    what = "the change from the step this gain is measured against (the best-so-far before it) to this step";
    break;
  case DiffRange::Attempt:
    // A dead-end's change is the failed attempt; a curated pitfall's is the
    // change in which the pitfall was met.
    if (!d.executable)
      what = "this step's change to the kernel source";
    else if (seg.string_or("seg_kind").starts_with("deadend"))
      what = seg.get("measured_against").get("sha").is_string()
                 ? "the failed attempt: the best-so-far code it was tried on against this step's latest commit "
                   "whose code differs from it in an executable line"
                 : "the failed attempt: the code before this step against its latest commit that changed executable "
                   "code";
    else
      what = "the change in which the recorded pitfall was met: the code before this step against its latest "
             "commit that changed executable code";
    break;
  case DiffRange::VersionChange:
    what = "this step's whole change: the code before its first commit against its last commit";
    break;
  }
  if (!d.executable)
    what += "; it changes no executable line, only comments, docstrings, blank lines or version stamps";
  return what;
}

// One end of the diff's range: the commit and the version it belongs to.
json::Value range_end(const VersionCommits &commits, const std::string &sha) {
  json::Value e = json::Value::object();
  std::string version = sha.empty() ? "" : commits.version_of(sha);
  e.set("version", version.empty() ? json::Value() : json::Value(version));
  e.set("git_commit", sha.empty() ? json::Value() : json::Value(sha));
  return e;
}

} // namespace

std::string evidence_text(const json::Value &agent_facing, const std::string &code) {
  std::string out;
  std::size_t parts = 0;
  collect(agent_facing, out, parts);
  if (!code.empty()) (parts ? out += '\n' : out) += code;
  return out;
}

std::vector<record::Leak> preflight(const json::Value &agent_facing, const scrub::Denylist *denylist) {
  return record::find_leaks(evidence_text(agent_facing, ""), true, denylist ? denylist->regex() : nullptr);
}

bool cap_at_line(std::string &code, std::size_t cap) {
  if (text::code_points(code) <= cap) return false;
  auto prefix = text::prefix_code_points(code, cap);
  auto nl = prefix.rfind('\n');
  code.resize(nl == std::string_view::npos ? 0 : nl + 1);
  return true;
}

namespace {

// The agent-facing texts of a packet, each scrubbed.
struct Texts {
  json::Value description, change, subject, body, gate, shapes;
  std::optional<Conclusion> conclusion;
  json::Value conclusion_text, directions, pitfalls, lever, fix, previous, harness, category, fixed_axes, var_axes;
  json::Value expected, directions_up, evidence, causal;
};

// Scrubs the texts in the order that fixes the shape-N numbering
// (packets.md §2): the spec's fields first, then otm's additions.
Texts scrub_texts(scrub::Scrubber &s, const json::Value &seg, const json::Value &row, const Context &ctx,
                  const std::vector<json::Value> &taken_up, const std::string &type) {
  const auto &meta = ctx.meta;
  Texts t;
  t.description = scrubbed(s, meta.get("description"));
  t.change = scrubbed(s, row.get("action_description"));
  t.subject = scrubbed(s, row.get("subject"));
  t.body = scrubbed(s, row.get("body"));
  t.gate = scrubbed(s, row.get("gate_failure"));
  t.shapes = shape_table(s, row.get("by_shape"));
  // The captures that measured the kernel under test are read first: a
  // profiler quote must come from the capture a record would cite.
  auto strings = [](const json::Value &list) {
    std::vector<std::string> out;
    if (const auto *a = list.as_array())
      for (const auto &d : *a)
        if (d.is_string()) out.push_back(*d.as_string());
    return out;
  };
  t.conclusion = report_conclusion(*ctx.files, strings(seg.get("report_dirs")), strings(seg.get("ncu_dirs")));
  t.conclusion_text = t.conclusion ? scrubbed(s, t.conclusion->text) : json::Value();
  // Only the entries kept (first 5 objects) are scrubbed, so labels never
  // skip numbers that appear nowhere.
  t.directions = json::Value::array();
  if (const auto *list = row.get("open_directions").as_array())
    for (const auto &e : *list) {
      if (!e.is_object() || t.directions.size() >= 5) continue;
      json::Value d = json::Value::object();
      d.set("direction", scrubbed(s, e.get("direction")));
      d.set("rationale", scrubbed(s, e.get("rationale")));
      t.directions.push_back(std::move(d));
    }
  t.pitfalls = json::Value::array();
  if (const auto *list = row.get("pitfalls").as_array())
    for (const auto &raw : *list) {
      auto e = trace::normalise_pitfall(raw);
      if (!e.is_object() || t.pitfalls.size() >= 5) continue;
      json::Value p = json::Value::object();
      for (const char *k : {"pitfall", "explanation", "fix"}) p.set(k, scrubbed(s, e.get(k)));
      t.pitfalls.push_back(std::move(p));
    }
  if (type == "anti-strategy") {
    t.lever = scrubbed(s, seg.get("deadend_text"));
    t.fix = scrubbed(s, seg.get("pitfall_fix"));
  }
  if (type == "strategy") t.previous = scrubbed(s, seg.get("builds_on").get("description"));
  t.harness = scrubbed(s, meta.get("harness"));
  t.category = scrubbed(s, row.get("action_category"));
  t.fixed_axes = scrub_strings(s, meta.get("constants").is_object() ? meta.get("constants") : json::Value::object());
  t.var_axes = scrub_strings(s, meta.get("var_axes").is_array() ? meta.get("var_axes") : json::Value::array());
  // The trace's own explanations (otm additions, scrubbed after the spec's
  // fields so its shape-N numbering is unchanged).
  t.expected = scrubbed(s, row.get("expected_impact"));
  t.directions_up = json::Value::array();
  for (const auto &e : taken_up) {
    json::Value d = json::Value::object();
    d.set("direction", scrubbed(s, e.get("direction")));
    d.set("rationale", scrubbed(s, e.get("rationale")));
    t.directions_up.push_back(std::move(d));
  }
  t.evidence = t.conclusion && t.conclusion->evidence ? scrubbed(s, *t.conclusion->evidence) : json::Value();
  t.causal = json::Value::array();
  if (const auto *b = t.body.as_string())
    for (auto &sentence : ctx.causal.causal_sentences(*b)) t.causal.push_back(std::move(sentence));
  return t;
}

struct CodeFile {
  std::optional<KernelDiff> diff; // for a diff
  std::string text;               // scrubbed, capped at a line; empty when blank
  std::string ext;                // ".diff" or ".py"
  bool truncated = false;
};

// The code file: the reference kernel or the step's diff, scrubbed after
// every text (its labels continue theirs).
CodeFile code_file(scrub::Scrubber &s, const json::Value &seg, const Context &ctx, const std::string &type) {
  CodeFile c;
  std::size_t cap = kMaxDiffChars;
  if (type == "reference-kernel") {
    c.text = reference_kernel(*ctx.repo, *ctx.files, seg);
    cap = kMaxKernelChars;
    c.ext = ".py";
  } else if (ctx.repo && ctx.commits) {
    c.diff = version_diff(*ctx.repo, *ctx.commits, seg, ctx.diffs);
    c.ext = ".diff";
  }
  // A diff is scrubbed on the lines its executable-line test lexed.
  if (c.diff && code::is_unified_diff(c.diff->text))
    c.text = s.code(c.diff->lexed->text, c.diff->lexed->lines);
  else
    c.text = s.code(c.diff ? c.diff->text : c.text);
  c.truncated = cap_at_line(c.text, cap);
  if (text::strip(c.text).empty()) c.text.clear();
  return c;
}

// The agent_facing layer (packets.md §3), without the code file's name.
json::Value agent_facing(const Texts &t, const json::Value &seg, const json::Value &row, const json::Value &meta,
                         const std::string &type) {
  json::Value af = json::Value::object();
  json::Value op = json::Value::object();
  op.set("what_it_computes", t.description);
  op.set("fixed_axes", t.fixed_axes);
  op.set("variable_axes", t.var_axes);
  op.set("n_benchmarked_shapes", meta.get("n_shapes"));
  op.set("dsl", seg.get("dsl"));
  op.set("gpu", gpu_of(meta));
  op.set("harness", t.harness);
  af.set("operator", op);
  json::Value said = json::Value::object();
  said.set("change", t.change);
  said.set("commit_subject", t.subject);
  said.set("commit_body", t.body);
  said.set("category_hint", t.category);
  said.set("gate_verdict", t.gate);
  said.set("expected_impact", t.expected);
  said.set("causal_sentences", t.causal);
  said.set("directions_taken_up", t.directions_up);
  af.set("what_the_run_said", said);
  json::Value m = json::Value::object();
  m.set("geomean_us", row.get("geomean_us"));
  m.set("improve_pct_vs_best_so_far", seg.get("improve_pct"));
  m.set("arith_mean_us", row.get("arith_mean_us"));
  m.set("per_shape_latency", t.shapes);
  json::Value correctness = json::Value::object();
  correctness.set("status", row.get("correctness_status"));
  correctness.set("max_abs_err", row.get("max_abs_err"));
  correctness.set("max_rel_err", row.get("max_rel_err"));
  m.set("correctness", correctness);
  m.set("comparable_with_the_store", seg.get("comparable"));
  af.set("measurements", m);
  const auto &conclusion = t.conclusion;
  json::Value prof = json::Value::object();
  prof.set("conclusion", t.conclusion_text);
  prof.set("ncu_measured_the_kernel_under_test", seg.get("ncu_dirs").size() > 0);
  prof.set("tool", conclusion && !conclusion->tool.empty() ? json::Value(conclusion->tool) : json::Value());
  prof.set("evidence", t.evidence);
  prof.set("conclusion_is_from_the_kernel_under_test", conclusion && conclusion->from_preferred);
  af.set("profiler", prof);
  af.set("open_directions", t.directions);
  af.set("pitfalls_recorded_here", t.pitfalls);
  if (type == "anti-strategy") {
    af.set("the_failed_lever", t.lever);
    af.set("how_it_was_fixed", t.fix);
    af.set("split_instruction", split_instruction(seg.string_or("split_by")));
    af.set("established_fact_required", established_fact_required(seg.get("fact_precheck")));
  }
  if (type == "strategy") {
    json::Value on = json::Value::object();
    on.set("was_the_untouched_baseline", seg.get("builds_on").get("is_baseline").truthy());
    on.set("previous_approach", t.previous);
    af.set("builds_on", on);
  }
  return af;
}

// Where the packet came from (never agent-facing).
json::Value provenance(const json::Value &seg, const std::optional<Conclusion> &conclusion, const scrub::Scrubber &s,
                       const CodeFile &code, const Context &ctx) {
  json::Value prov = json::Value::object();
  prov.set("source_repo", seg.get("source_repo"));
  prov.set("version", seg.get("version"));
  prov.set("git_commit", seg.get("sha"));
  prov.set("ncu_dirs", seg.get("ncu_dirs").is_array() ? seg.get("ncu_dirs") : json::Value::array());
  prov.set("report_dir", conclusion ? json::Value(conclusion->dir) : json::Value());
  prov.set("shape_label_note", std::to_string(s.labels_allocated()) + " workload hashes were relabelled shape-N");
  prov.set("diff_from", code.diff ? range_end(*ctx.commits, code.diff->base) : json::Value());
  prov.set("diff_to", code.diff ? range_end(*ctx.commits, code.diff->target) : json::Value());
  prov.set("code_truncated", code.truncated);
  return prov;
}

} // namespace

Built build_packet(const json::Value &seg, const json::Value &row, const Context &ctx,
                   const std::vector<json::Value> &taken_up) {
  // The packet's own version: its mentions of itself read "this step".
  scrub::Scrubber s(ctx.denylist, seg.string_or("version"));
  std::string type = seg.string_or("record_type");
  Built out;
  out.seg_id = seg.string_or("seg_id");

  const Texts texts = scrub_texts(s, seg, row, ctx, taken_up, type);
  CodeFile code = code_file(s, seg, ctx, type);
  out.code = code.text;

  json::Value af = agent_facing(texts, seg, row, ctx.meta, type);
  if (code.diff && !out.code.empty()) af.set("diff_shows", diff_shows(*code.diff, seg));
  // The evidence text without the code (what the pre-flight scans), and its
  // length with the code (evidence_text(af, code), not built twice).
  std::string evidence;
  std::size_t parts = 0;
  collect(af, evidence, parts);
  std::size_t evidence_chars = text::code_points(evidence);
  if (!out.code.empty()) evidence_chars += (parts ? 1 : 0) + text::code_points(out.code);
  out.leaks = record::find_leaks(evidence, true, ctx.denylist ? ctx.denylist->regex() : nullptr);
  if (!out.code.empty()) {
    out.code_name = out.seg_id + code.ext;
    af.set(code.ext == ".diff" ? "diff_file" : "kernel_file", out.code_name);
  }

  json::Value p = json::Value::object();
  p.set("seg_id", out.seg_id);
  p.set("record_type", type);
  p.set("seg_kind", seg.get("seg_kind"));
  p.set("target", target_of(seg, ctx));
  p.set("agent_facing", af);
  p.set("provenance", provenance(seg, texts.conclusion, s, code, ctx));
  p.set("evidence_chars", evidence_chars);
  p.set("code_bytes", text::code_points(out.code));
  out.packet = std::move(p);
  return out;
}

} // namespace otm::packet
