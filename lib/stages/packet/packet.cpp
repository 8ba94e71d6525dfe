#include "packet/packet.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "packet/dram_traffic.hpp"
#include "packet/earlier_tries.hpp"
#include "packet/instructions.hpp"
#include "packet/packet_measurements.hpp"
#include "packet/packet_texts.hpp"
#include "packet/report_conclusion.hpp"
#include "packet/shape_reach.hpp"
#include "packet/span.hpp"
#include "record/store_layout.hpp"
#include "scrub/scrubber.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/step_record.hpp"
#include "workspace/kernel_file.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

namespace otm::packet {

namespace {

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

std::string gpu_of(const workspace::TraceMeta &meta) {
  const std::string &product = meta.product;
  std::string upper = product.empty() ? "ANY" : product;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  return upper + " (" + meta.vendor + " " + meta.arch + ")";
}

// Where the segment's record will live below the store (record::record_dir
// of its type and scope): the same few places for every packet of a trace,
// so found once per thread and place.
const std::string &output_dir_of(const workspace::Segment &seg) {
  thread_local std::unordered_map<std::string, std::string> known;
  std::string key;
  for (const auto *decides : {&seg.record_type, &seg.vendor, &seg.arch, &seg.dsl, &seg.operator_slug})
    (key += json::to_line(json::Value(*decides))) += '\n';
  if (auto it = known.find(key); it != known.end()) return it->second;
  json::Value scope = json::Value::object();
  scope.set("vendor", seg.vendor);
  scope.set("arch", seg.arch);
  scope.set("dsl", seg.dsl);
  scope.set("operator_family", seg.operator_slug);
  json::Value retrieval = json::Value::object();
  retrieval.set("scope", std::move(scope));
  json::Value placement = json::Value::object();
  placement.set("type", seg.record_type);
  placement.set("retrieval", std::move(retrieval));
  return known.emplace(std::move(key), workspace::store_relpath(record::record_dir(placement))).first->second;
}

json::Value target_of(const workspace::Segment &seg, const Context &ctx) {
  json::Value scope = json::Value::object();
  scope.set("vendor", seg.vendor);
  scope.set("arch", seg.arch);
  scope.set("product", seg.product);
  scope.set("dsl", seg.dsl);
  scope.set("operator_family", seg.operator_slug);
  json::Value out = json::Value::object();
  out.set("id", seg.id);
  out.set("episode_key", seg.episode_key);
  out.set("output_dir", output_dir_of(seg));
  out.set("scope", std::move(scope));
  out.set("workload_family", seg.workload_family);
  out.set("level", "operator");
  out.set("schema", ctx.schema);
  return out;
}

// What the diff file holds, for the agent (no digits: the no-fabrication
// pool stays as it was).
std::string diff_shows(const KernelDiff &d, const workspace::Segment &seg) {
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
    else if (seg.seg_kind.starts_with("deadend"))
      what = seg.measured_from().sha
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
    what += "; it changes no line that runs, only comments, docstrings, blank lines, version stamps, assignments "
            "nothing reads or functions nothing calls";
  return what;
}

// One end of the diff's range: the commit and the version it belongs to.
workspace::PacketProvenance::End range_end(const VersionCommits &commits, const std::string &sha) {
  workspace::PacketProvenance::End out;
  if (sha.empty()) return out;
  if (std::string version = commits.version_of(sha); !version.empty()) out.version = std::move(version);
  out.git_commit = sha;
  return out;
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

// The versions of the run's other tries of an anti-strategy's lever (its
// merged occurrences, and the steps whose change states the same setting)
// whose step passed its correctness check, in run order, each once.
std::vector<std::string> accounts_that_passed(const workspace::Segment &seg, const RunFacts *facts) {
  std::vector<std::string> out;
  if (!facts) return out;
  auto consider = [&](const std::string &v) {
    if (v != seg.version && std::find(out.begin(), out.end(), v) == out.end() && facts->passed_correctness(v))
      out.push_back(v);
  };
  for (const auto &v : workspace::Segment::versions_in(seg.occurrences)) consider(v);
  if (const auto *tried = seg.tried_in_the_run.as_array())
    for (const auto &t : *tried)
      if (const auto *v = t.as_string()) consider(*v);
  return out;
}

struct CodeFile {
  std::optional<KernelDiff> diff; // for a diff
  std::string text;               // scrubbed, capped at a line; empty when blank
  std::string ext;                // ".diff" or ".py"
  bool truncated = false;
};

// The kernel-file change a strategy's or anti-strategy's code shows
// (version_diff); nullopt for a reference kernel or without a repository.
std::optional<KernelDiff> kernel_diff_of(const workspace::Segment &seg, const Context &ctx, const std::string &type) {
  if (type == "reference-kernel" || !ctx.repo || !ctx.commits) return std::nullopt;
  return version_diff(*ctx.repo, ctx.meta.kernel_file, *ctx.commits, seg, ctx.diffs,
                      ctx.facts ? ctx.facts->code_made_on(seg.version) : std::string());
}

// The code file: the reference kernel or the step's diff (`diff`, from
// kernel_diff_of), scrubbed after every text (its labels continue theirs).
CodeFile code_file(scrub::Scrubber &s, const workspace::Segment &seg, const Context &ctx, const std::string &type,
                   std::optional<KernelDiff> diff) {
  CodeFile c;
  std::size_t cap = kMaxDiffChars;
  if (type == "reference-kernel") {
    c.text = reference_kernel(*ctx.repo, ctx.meta.kernel_file, *ctx.files, seg);
    cap = kMaxKernelChars;
    // The kernel's own extension, which says its language to every later
    // reader (a kernel.cu is C++, not Python).
    c.ext = workspace::kernel_extension(seg.kernel_file.empty() ? ctx.meta.kernel_file : seg.kernel_file);
  } else if (ctx.repo && ctx.commits) {
    c.diff = std::move(diff);
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

// [{"change": text}, ...], one object per scrubbed change text.
json::Value changes_of(json::Value changes) {
  json::Value out = json::Value::array();
  if (auto *items = changes.as_array())
    for (auto &c : *items) {
      json::Value change = json::Value::object();
      change.set("change", std::move(c));
      out.push_back(std::move(change));
    }
  return out;
}

// The versions of `steps`, in order.
std::vector<std::string> versions_of(const std::vector<const workspace::VersionRow *> &steps) {
  std::vector<std::string> out;
  out.reserve(steps.size());
  for (const auto *step : steps) out.push_back(step->version);
  return out;
}

// Of a milestone snapshot's later milestones in its DSL (partition's
// `later_in_its_dsl`), the fastest measured the same way as it: (version,
// geomean). nullopt when none is.
std::optional<std::pair<std::string, double>> fastest_later_in_its_dsl(const workspace::Segment &seg,
                                                                       const RunFacts *facts) {
  std::optional<std::pair<std::string, double>> best;
  if (!seg.later_in_its_dsl || !facts) return best;
  for (const auto &v : workspace::Segment::versions_in(*seg.later_in_its_dsl)) {
    auto us = facts->geomean_of(v);
    if (!us || facts->measurement_changed_after(seg.version, v)) continue;
    if (!best || *us < best->second) best.emplace(v, *us);
  }
  return best;
}

// The agent_facing layer (packets.md §3) but the code file's names, which
// build_packet adds after the evidence is collected. Takes the texts' values.
json::Value agent_facing_of(Texts &t, const workspace::Segment &seg, const workspace::VersionRow &row,
                            const Context &ctx, const std::string &type, const Span &span,
                            const std::optional<DramTraffic> &dram) {
  const auto &meta = ctx.meta;
  const RunFacts *facts = ctx.facts;
  json::Value out = json::Value::object();

  json::Value op = json::Value::object();
  op.set("what_it_computes", std::move(t.description));
  op.set("fixed_axes", std::move(t.fixed_axes));
  op.set("variable_axes", std::move(t.var_axes));
  if (t.benchmarked_values.size()) op.set("benchmarked_values", std::move(t.benchmarked_values));
  if (t.benchmarked_shapes.size()) op.set("benchmarked_shapes", std::move(t.benchmarked_shapes));
  // Written only then, so packets of traces that agree with themselves stay as they were.
  if (t.fixed_axes_benchmarked_otherwise.size())
    op.set("fixed_axes_the_workload_benchmarks_at_other_values", std::move(t.fixed_axes_benchmarked_otherwise));
  op.set("n_benchmarked_shapes", meta.n_shapes);
  op.set("dsl", seg.dsl);
  op.set("gpu", gpu_of(meta));
  op.set("harness", std::move(t.harness));
  out.set("operator", std::move(op));

  json::Value said = json::Value::object();
  said.set("change", std::move(t.change));
  said.set("commit_subject", std::move(t.subject));
  said.set("commit_body", std::move(t.body));
  said.set("category_hint", std::move(t.category));
  said.set("gate_verdict", std::move(t.gate));
  said.set("expected_impact", std::move(t.expected));
  said.set("expected_impact_stated_by_steps", facts ? facts->steps_stating(row.expected_impact) : 0);
  said.set("causal_sentences", std::move(t.causal));
  said.set("directions_taken_up", std::move(t.directions_up));
  said.set("stock_texts", std::move(t.stock));
  out.set("what_the_run_said", std::move(said));

  out.set("measurements", measurements_of(t, seg, row, ctx, type));

  const auto &conclusion = t.conclusion;
  json::Value profiler = json::Value::object();
  profiler.set("conclusion", std::move(t.conclusion_text));
  profiler.set("ncu_measured_the_kernel_under_test", !seg.ncu_dirs.empty());
  profiler.set("tool", conclusion && !conclusion->tool.empty() ? json::Value(conclusion->tool) : json::Value());
  profiler.set("evidence", std::move(t.evidence));
  profiler.set("conclusion_is_from_the_kernel_under_test", conclusion && conclusion->from_preferred);
  // The kernel's DRAM traffic across the change, from a capture before and
  // one after on the same kernel and shape (the captures in provenance):
  // what a cause about DRAM traffic is checked against. Written only then.
  if (dram) {
    json::Value traffic = json::Value::object();
    traffic.set("bytes_after_over_before", json::hundredths(dram->bytes_after_over_before));
    for (const auto *side : {&dram->before, &dram->after}) {
      json::Value figures = json::Value::object();
      figures.set("dram_throughput_pct", side->dram_pct);
      figures.set("duration_us", side->duration_us);
      traffic.set(side == &dram->before ? "before" : "after", std::move(figures));
    }
    profiler.set("dram_traffic_vs_measured_against", std::move(traffic));
  }
  out.set("profiler", std::move(profiler));

  out.set("open_directions", std::move(t.directions));
  out.set("pitfalls_recorded_here", std::move(t.pitfalls));
  if (type == "anti-strategy") {
    out.set("the_failed_lever", std::move(t.lever));
    out.set("how_it_was_fixed", std::move(t.fix));
    out.set("split_instruction", split_instruction(seg.split_by));
    out.set("established_fact_required", established_fact_required(seg.fact_precheck));
    // The run's other accounts of this lever are merged here (one record
    // per failed lever); a kept step after it that states the same setting
    // makes "it fails" no longer the run's finding.
    out.set("accounts_of_this_lever", std::max<std::size_t>(1, seg.occurrences.size()));
    out.set("kept_in_the_run_with_the_same_setting", changes_of(std::move(t.later_kept)));
    // Other values of the lever that kept steps state: what of it the run
    // built and kept (written only when there are some).
    if (t.other_settings_kept.size()) out.set("kept_in_the_run_with_other_settings", std::move(t.other_settings_kept));
    // How many of the run's other tries of this lever (its accounts, the
    // steps stating the same setting) passed their correctness check (the
    // versions are in provenance): an accuracy failure they contradict is
    // not the lever's.
    out.set("other_accounts_that_passed_correctness", accounts_that_passed(seg, facts).size());
  }
  if (type == "reference-kernel") {
    json::Value s = json::Value::object();
    s.set("this_step_changes_running_code", span.this_step_runs);
    if (span.differs_from_measured_against)
      s.set("code_runs_differently_from_the_best_before_it", *span.differs_from_measured_against);
    if (span.differs_from_final_kernel)
      s.set("code_runs_differently_from_the_final_kernel", *span.differs_from_final_kernel);
    // A milestone snapshot: the run's final kernel, what a reader would
    // weigh it against.
    if (const auto final_version = seg.final_kernel_at().version; final_version && facts) {
      const auto *final_row = facts->row_of(*final_version);
      json::Value final_kernel = json::Value::object();
      final_kernel.set("dsl", final_row ? json::Value(final_row->dsl) : json::Value());
      final_kernel.set("geomean_us", facts->geomean_of(*final_version));
      // The run changed how it measures between this snapshot and the
      // final kernel (a harness re-baseline): their geomeans do not compare.
      // Written only then, so packets of runs that never did stay as they were.
      if (facts->measurement_changed_after(seg.version, *final_version))
        final_kernel.set("measured_the_same_way_as_this_kernel", false);
      s.set("final_kernel", std::move(final_kernel));
    }
    // The fastest later milestone of its own DSL measured the same way
    // (the final kernel may be in another DSL: the snapshot before a port),
    // what a reader would start from instead (kit15: the example's v3 at
    // 43.7 us beside a later Triton kernel's 31.1 us).
    if (auto later = fastest_later_in_its_dsl(seg, facts)) {
      json::Value kernel = json::Value::object();
      kernel.set("geomean_us", later->second);
      s.set("later_kernel_of_its_dsl", std::move(kernel));
    }
    // The final kernel: what the run kept after it without a new best, so
    // the kernel it ended with is another (written only when there is some).
    if (t.kept_after.size()) s.set("kept_after_it_without_a_new_best", changes_of(std::move(t.kept_after)));
    if (t.kept_after_unmeasured.size())
      s.set("kept_after_it_unmeasured", changes_of(std::move(t.kept_after_unmeasured)));
    // A step of its lineage that removed a barrier (written only then).
    if (!t.barrier_removal.is_null()) s.set("a_kept_step_removed_a_barrier", std::move(t.barrier_removal));
    out.set("span", std::move(s));
    out.set("kept_changes_of_its_lineage", changes_of(std::move(t.lineage)));
  }
  if (type == "strategy") {
    json::Value builds_on = json::Value::object();
    // The untouched baseline only when the code builds on the previous
    // milestone itself (not on a kept step after it).
    builds_on.set(
        "was_the_untouched_baseline",
        seg.builds_on.get("is_baseline").truthy() &&
            (span.builds_on_version.empty() || span.builds_on_version == seg.builds_on_step().version.value_or("")));
    builds_on.set("previous_approach", std::move(t.previous));
    out.set("builds_on", std::move(builds_on));
    json::Value s = json::Value::object();
    s.set("this_step_changes_running_code", span.this_step_runs);
    s.set("earlier_kept_steps", changes_of(std::move(t.span_changes)));
    // What the run measured this step from, in its own subject, beside the
    // best-so-far the span's gain is measured against (kit16 F06: the kept
    // step between measured 115.9 -> 79.18 us but has no memory
    // measurement; this step, 78.62 -> 75.05 us, was credited 34.9 %).
    // Written only for a span, so other packets stay as they were.
    if (!span.earlier.empty() && facts) {
      auto best = facts->geomean_of(seg.measured_from().version.value_or(""));
      const auto &from = row.subject_before_us, &to = row.subject_after_us;
      if (best && from && to) {
        s.set("best_so_far_geomean_us", *best);
        s.set("the_run_measured_this_step_from_us", *from);
        s.set("the_run_measured_this_step_to_us", *to);
      }
    }
    out.set("span", std::move(s));
    out.set("kept_changes_of_its_lineage", changes_of(std::move(t.lineage)));
    // The run's reverted tries of this same change before it, and the kept
    // steps since the last of them: what the gain may depend on (written
    // only when the run had tried it before).
    if (!span.reverted_tries.empty()) {
      out.set("reverted_earlier_tries_of_this_change", span.reverted_tries.size());
      // How each ended, in run order, when the run's rows are known.
      if (ctx.facts) {
        json::Value ended = json::Value::array();
        // ... and what each measured against the code it was tried on (the
        // last kept step before it), in percent: a try already faster
        // needed nothing the run kept since (kit 56, O27; kit 54, Q11).
        json::Value measured = json::Value::array();
        for (const auto &v : span.reverted_tries)
          if (const auto *r = ctx.facts->row_of(v)) {
            ended.push_back(how_a_try_ended(*r));
            const auto pct = try_slower_than_tried_on_pct(*ctx.facts, *r);
            measured.push_back(pct ? json::hundredths(*pct) : json::Value());
          }
        out.set("how_its_earlier_tries_ended", std::move(ended));
        out.set("its_earlier_tries_slower_than_tried_on_pct", std::move(measured));
      }
      out.set("kept_since_its_last_reverted_try", changes_of(std::move(t.kept_since_last_try)));
    }
  }
  return out;
}

// Where the packet came from (never agent-facing): each field the packet's
// type has.
workspace::PacketProvenance provenance_of(const workspace::Segment &seg, const std::optional<Conclusion> &conclusion,
                                          const scrub::Scrubber &s, const CodeFile &code, const Context &ctx,
                                          const Span &span, const std::optional<DramTraffic> &dram) {
  const std::string &type = seg.record_type;
  workspace::PacketProvenance p;
  p.source_repo = seg.source_repo;
  p.version = seg.version;
  p.git_commit = seg.sha;
  p.ncu_dirs = seg.ncu_dirs;
  if (conclusion) p.report_dir = conclusion->dir;
  p.shape_label_note = std::to_string(s.labels_allocated()) + " workload hashes were relabelled shape-N";
  if (code.diff) {
    p.diff_from = range_end(*ctx.commits, code.diff->base);
    p.diff_to = range_end(*ctx.commits, code.diff->target);
  }
  p.code_truncated = code.truncated;
  // The versions of agent_facing.span.earlier_kept_steps and of
  // kept_changes_of_its_lineage, each in its order.
  if (type == "strategy" || type == "reference-kernel") p.lineage_versions = versions_of(span.lineage);
  if (auto later = fastest_later_in_its_dsl(seg, ctx.facts)) p.later_kernel_of_its_dsl = later->first;
  p.kept_after_it_without_a_new_best = versions_of(span.kept_after);
  p.kept_after_it_unmeasured = versions_of(span.kept_after_unmeasured);
  if (dram) p.dram_captures = {dram->before.dir, dram->after.dir};
  if (type == "strategy") {
    p.span_versions = versions_of(span.earlier);
    p.reverted_earlier_tries_of_this_change = span.reverted_tries;
    // The version whose change agent_facing.builds_on.previous_approach is.
    p.builds_on_version =
        !span.builds_on_version.empty() ? std::optional(span.builds_on_version) : seg.builds_on_step().version;
  }
  // An anti-strategy's merged accounts of its lever and the kept steps
  // that later stated the same setting, by version (for explain).
  if (const auto *occurrences = seg.occurrences.as_array()) {
    auto &lever = p.lever.emplace();
    for (const auto &o : *occurrences) lever.accounts.push_back(workspace::StepRef::of(o).version);
    if (const auto *later = seg.kept_in_the_run.as_array())
      for (const auto &k : *later) lever.kept_with_the_same_setting.push_back(workspace::StepRef::of(k).version);
    // The versions of what the texts kept: steps whose own change runs.
    if (const auto *other = seg.kept_with_other_settings.as_array())
      for (const auto &k : *other)
        if (auto version = workspace::StepRef::of(k).version; own_change_runs(ctx, version.value_or("")))
          lever.kept_with_other_settings.push_back(std::move(version));
    lever.other_accounts_that_passed_correctness = accounts_that_passed(seg, ctx.facts);
  }
  return p;
}

} // namespace

Built build_packet(const workspace::Segment &seg, const workspace::VersionRow &row, const Context &ctx,
                   const std::vector<json::Value> &taken_up) {
  // The packet's own version: its mentions of itself read "this step".
  scrub::Scrubber s(ctx.denylist, seg.version, ctx.scrub_memo);
  const std::string &type = seg.record_type;
  Built out;
  out.seg_id = seg.seg_id;
  out.record_type = type;
  out.id = seg.id;

  const Span span = span_of(seg, ctx);
  auto diff = kernel_diff_of(seg, ctx, type);
  auto reach = shapes_reached(diff ? &*diff : nullptr, seg, ctx);
  if (type == "strategy" && diff)
    add_presented_kernel_defects(reach, diff->target, ctx.meta.kernel_file, ctx);
  else if (type == "reference-kernel" && ctx.repo) {
    auto source = reference_source(*ctx.repo, ctx.meta.kernel_file, seg);
    add_presented_kernel_defects(reach, source.commit, source.path, ctx);
  }
  Texts texts = scrub_texts(s, seg, row, ctx, taken_up, type, span, reach);
  CodeFile code = code_file(s, seg, ctx, type, std::move(diff));
  out.code = code.text;

  const auto dram = dram_traffic(seg, ctx);
  json::Value agent_facing = agent_facing_of(texts, seg, row, ctx, type, span, dram);
  if (code.diff && !out.code.empty()) agent_facing.set("diff_shows", diff_shows(*code.diff, seg));
  // The evidence text without the code (what the pre-flight scans) is the
  // layer's before the code files' names are added; its length with the
  // code is evidence_text(agent_facing, code)'s.
  std::string evidence;
  std::size_t parts = 0;
  collect(agent_facing, evidence, parts);
  out.evidence_chars = text::code_points(evidence);
  if (!out.code.empty()) out.evidence_chars += (parts ? 1 : 0) + text::code_points(out.code);
  out.leaks = record::find_leaks(evidence, true, ctx.denylist ? ctx.denylist->regex() : nullptr);
  if (!out.code.empty()) {
    out.code_name = out.seg_id + code.ext;
    agent_facing.set(code.ext == ".diff" ? "diff_file" : "kernel_file", out.code_name);
    // The whole kernel after the change, so a reader of the diff can tell
    // a changed line that runs from an assignment nothing reads.
    if (code.diff && code.diff->after && !code.diff->after->empty()) {
      std::string after = s.code(*code.diff->after);
      if (!cap_at_line(after, kMaxKernelChars)) {
        out.siblings.push_back(
            {out.seg_id + kCodeAfterMark + workspace::kernel_extension(ctx.meta.kernel_file), std::move(after)});
        agent_facing.set("code_after_file", out.siblings.back().first);
      }
    }
    // The claimed step's own change, when the diff also holds earlier steps.
    if (span.own) {
      std::string own = s.code(span.own->lexed->text, span.own->lexed->lines);
      if (!cap_at_line(own, kMaxDiffChars)) {
        out.siblings.push_back({out.seg_id + kStepDiffSuffix, std::move(own)});
        agent_facing.set("step_diff_file", out.siblings.back().first);
      }
    }
  }
  if (type == "strategy" && code.diff && code.diff->after)
    if (auto *builds_on = agent_facing.find("builds_on");
        builds_on && !builds_on->get("was_the_untouched_baseline").truthy()) {
      const std::string on =
          !span.builds_on_version.empty() ? span.builds_on_version : seg.builds_on_step().version.value_or("");
      if (auto change = running_change_of(ctx, on, *code.diff->after, s); !change.is_null())
        builds_on->set("its_running_change", std::move(change));
    }
  out.provenance = provenance_of(seg, texts.conclusion, s, code, ctx, span, dram);
  out.code_bytes = text::code_points(out.code);

  out.packet = json::Value::object();
  out.packet.set("seg_id", out.seg_id);
  out.packet.set("record_type", type);
  out.packet.set("seg_kind", seg.seg_kind);
  out.packet.set("target", target_of(seg, ctx));
  out.packet.set("agent_facing", std::move(agent_facing));
  out.packet.set("provenance", out.provenance.to_json(type));
  out.packet.set("evidence_chars", out.evidence_chars);
  out.packet.set("code_bytes", out.code_bytes);
  out.text = json::to_pretty(out.packet);
  return out;
}

} // namespace otm::packet
