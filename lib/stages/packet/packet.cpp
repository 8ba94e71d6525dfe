#include "packet/packet.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "packet/dram_traffic.hpp"
#include "packet/instructions.hpp"
#include "packet/packet_texts.hpp"
#include "packet/report_conclusion.hpp"
#include "packet/shape_reach.hpp"
#include "packet/span.hpp"
#include "record/store_layout.hpp"
#include "scrub/scrubber.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/step_record.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"
#include "json/writer.hpp"

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

void write_target(json::Writer &w, const workspace::Segment &seg, const Context &ctx) {
  w.begin_object();
  w.key("id").value(seg.id);
  w.key("episode_key").value(seg.episode_key);
  w.key("output_dir").value(output_dir_of(seg));
  w.key("scope").begin_object();
  w.key("vendor").value(seg.vendor);
  w.key("arch").value(seg.arch);
  w.key("product").value(seg.product);
  w.key("dsl").value(seg.dsl);
  w.key("operator_family").value(seg.operator_slug);
  w.end_object();
  w.key("workload_family").value(seg.workload_family);
  w.key("level").value("operator");
  w.key("schema").value(ctx.schema);
  w.end_object();
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
void write_range_end(json::Writer &w, const VersionCommits &commits, const std::string &sha) {
  std::string version = sha.empty() ? "" : commits.version_of(sha);
  w.begin_object();
  w.key("version");
  version.empty() ? w.null() : w.value(version);
  w.key("git_commit");
  sha.empty() ? w.null() : w.value(sha);
  w.end_object();
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

// The kernel.py change a strategy's or anti-strategy's code shows
// (version_diff); nullopt for a reference kernel or without a repository.
std::optional<KernelDiff> kernel_diff_of(const workspace::Segment &seg, const Context &ctx, const std::string &type) {
  if (type == "reference-kernel" || !ctx.repo || !ctx.commits) return std::nullopt;
  return version_diff(*ctx.repo, *ctx.commits, seg, ctx.diffs,
                      ctx.facts ? ctx.facts->code_made_on(seg.version) : std::string());
}

// The code file: the reference kernel or the step's diff (`diff`, from
// kernel_diff_of), scrubbed after every text (its labels continue theirs).
CodeFile code_file(scrub::Scrubber &s, const workspace::Segment &seg, const Context &ctx, const std::string &type,
                   std::optional<KernelDiff> diff) {
  CodeFile c;
  std::size_t cap = kMaxDiffChars;
  if (type == "reference-kernel") {
    c.text = reference_kernel(*ctx.repo, *ctx.files, seg);
    cap = kMaxKernelChars;
    c.ext = ".py";
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

// `key`: [{"change": text}, ...], one object per scrubbed change text.
void write_changes(json::Writer &w, const char *key, const json::Value &changes) {
  w.key(key).begin_array();
  for (const auto &c : *changes.as_array()) {
    w.begin_object();
    w.key("change").value(c);
    w.end_object();
  }
  w.end_array();
}

// `key`: [version, ...] of `steps`, in order.
void write_versions(json::Writer &w, const char *key, const std::vector<const workspace::VersionRow *> &steps) {
  w.key(key).begin_array();
  for (const auto *step : steps) w.value(step->version);
  w.end_array();
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

// The agent_facing layer (packets.md §3) but the code file's name, left
// open for it.
void write_agent_facing(json::Writer &w, const Texts &t, const workspace::Segment &seg,
                        const workspace::VersionRow &row, const Context &ctx, const std::string &type, const Span &span,
                        const std::optional<DramTraffic> &dram) {
  const auto &meta = ctx.meta;
  const RunFacts *facts = ctx.facts;
  w.begin_object();
  w.key("operator").begin_object();
  w.key("what_it_computes").value(t.description);
  w.key("fixed_axes").value(t.fixed_axes);
  w.key("variable_axes").value(t.var_axes);
  if (t.benchmarked_values.size()) w.key("benchmarked_values").value(t.benchmarked_values);
  if (t.benchmarked_shapes.size()) w.key("benchmarked_shapes").value(t.benchmarked_shapes);
  w.key("n_benchmarked_shapes").value(meta.n_shapes);
  w.key("dsl").value(seg.dsl);
  w.key("gpu").value(gpu_of(meta));
  w.key("harness").value(t.harness);
  w.end_object();
  w.key("what_the_run_said").begin_object();
  w.key("change").value(t.change);
  w.key("commit_subject").value(t.subject);
  w.key("commit_body").value(t.body);
  w.key("category_hint").value(t.category);
  w.key("gate_verdict").value(t.gate);
  w.key("expected_impact").value(t.expected);
  w.key("expected_impact_stated_by_steps").value(facts ? facts->steps_stating(row.expected_impact) : 0);
  w.key("causal_sentences").value(t.causal);
  w.key("directions_taken_up").value(t.directions_up);
  w.end_object();
  w.key("measurements").begin_object();
  w.key("geomean_us").value(row.geomean_us);
  w.key("improve_pct_vs_best_so_far").value(seg.improve_pct);
  w.key("arith_mean_us").value(row.arith_mean_us);
  w.key("per_shape_latency").value(t.shapes);
  w.key("correctness").begin_object();
  w.key("status").value(json::Value(row.correctness_status));
  w.key("max_abs_err").value(row.max_abs_err);
  w.key("max_rel_err").value(row.max_rel_err);
  w.end_object();
  w.key("comparable_with_the_store").value(seg.comparable);
  // The run's noise band (issue 25): the largest spread of its own
  // re-measurements of unchanged code; and for a failed attempt, how much
  // slower it measured than the code it was tried on.
  auto spread = facts ? facts->same_code_spread_pct() : std::nullopt;
  w.key("same_code_spread_pct").value(spread ? json::hundredths(*spread) : json::Value());
  if (type == "reference-kernel" && facts) {
    // The run's other measurements of this very code (round 28, W13): a
    // kernel quoted at the fastest of its re-measurements reads as faster
    // than it is.
    const auto same = facts->kept_with_the_same_code(seg.version);
    if (same.size() >= 2) {
      w.key("same_code_kept_geomeans_us").begin_array();
      for (const auto *r : same) w.value(r->geomean() ? json::Value(*r->geomean()) : json::Value());
      w.end_array();
    }
  }
  if (type != "reference-kernel") {
    // Per shape (issue 25): a geomean gain can sit on shapes the change
    // leaves as they were, and hide a shape that slowed.
    auto shape_spread = facts ? facts->same_code_shape_spread_pct() : std::nullopt;
    w.key("same_code_shape_spread_pct").value(shape_spread ? json::hundredths(*shape_spread) : json::Value());
    w.key("per_shape_vs_measured_against").value(t.shape_changes);
    // The product's SM count, what a cause about filling the SMs is read
    // against (`launch_grid.sm_count`).
    w.key("sm_count").value(ctx.sm_count ? json::Value(static_cast<double>(*ctx.sm_count)) : json::Value());
  }
  // The shapes the kernel the record presents cannot compute (a loop's
  // last step reads past the end): what its measurement there is worth.
  if (t.reads_past_the_end.size() > 0) w.key("shapes_it_reads_past_the_end_of").value(t.reads_past_the_end);
  // ... or cannot launch: more shared memory than a block may have.
  if (t.exceeds_shared_memory.size() > 0) w.key("shapes_it_exceeds_shared_memory_on").value(t.exceeds_shared_memory);
  if (type == "anti-strategy") {
    json::Value slower;
    auto mine = row.geomean();
    auto base = facts ? facts->geomean_of(seg.measured_from().version.value_or("")) : std::nullopt;
    if (mine && base && *base > 0) slower = json::hundredths((*mine / *base - 1.0) * 100.0);
    w.key("slower_than_tried_on_pct").value(slower);
  }
  w.end_object();
  const auto &conclusion = t.conclusion;
  w.key("profiler").begin_object();
  w.key("conclusion").value(t.conclusion_text);
  w.key("ncu_measured_the_kernel_under_test").value(!seg.ncu_dirs.empty());
  w.key("tool");
  conclusion && !conclusion->tool.empty() ? w.value(conclusion->tool) : w.null();
  w.key("evidence").value(t.evidence);
  w.key("conclusion_is_from_the_kernel_under_test").value(conclusion && conclusion->from_preferred);
  // The kernel's DRAM traffic across the change, from a capture before and
  // one after on the same kernel and shape (the captures in provenance):
  // what a cause about DRAM traffic is checked against. Written only then.
  if (dram) {
    w.key("dram_traffic_vs_measured_against").begin_object();
    w.key("bytes_after_over_before").value(json::hundredths(dram->bytes_after_over_before));
    for (const auto *side : {&dram->before, &dram->after}) {
      w.key(side == &dram->before ? "before" : "after").begin_object();
      w.key("dram_throughput_pct").value(side->dram_pct);
      w.key("duration_us").value(side->duration_us);
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();
  w.key("open_directions").value(t.directions);
  w.key("pitfalls_recorded_here").value(t.pitfalls);
  if (type == "anti-strategy") {
    w.key("the_failed_lever").value(t.lever);
    w.key("how_it_was_fixed").value(t.fix);
    w.key("split_instruction").value(split_instruction(seg.split_by));
    w.key("established_fact_required").value(established_fact_required(seg.fact_precheck));
    // The run's other accounts of this lever are merged here (one record
    // per failed lever); a kept step after it that states the same setting
    // makes "it fails" no longer the run's finding.
    w.key("accounts_of_this_lever").value(static_cast<std::int64_t>(std::max<std::size_t>(1, seg.occurrences.size())));
    write_changes(w, "kept_in_the_run_with_the_same_setting", t.later_kept);
    // Other values of the lever that kept steps state: what of it the run
    // built and kept (written only when there are some).
    if (t.other_settings_kept.size()) w.key("kept_in_the_run_with_other_settings").value(t.other_settings_kept);
    // How many of the run's other tries of this lever (its accounts, the
    // steps stating the same setting) passed their correctness check (the
    // versions are in provenance): an accuracy failure they contradict is
    // not the lever's.
    w.key("other_accounts_that_passed_correctness")
        .value(static_cast<std::int64_t>(accounts_that_passed(seg, facts).size()));
  }
  if (type == "reference-kernel") {
    w.key("span").begin_object();
    w.key("this_step_changes_running_code").value(span.this_step_runs);
    if (span.differs_from_measured_against)
      w.key("code_runs_differently_from_the_best_before_it").value(*span.differs_from_measured_against);
    if (span.differs_from_final_kernel)
      w.key("code_runs_differently_from_the_final_kernel").value(*span.differs_from_final_kernel);
    // A milestone snapshot: the run's final kernel, what a reader would
    // weigh it against.
    if (const auto final_version = seg.final_kernel_at().version; final_version && facts) {
      const auto *final_row = facts->row_of(*final_version);
      auto geomean = facts->geomean_of(*final_version);
      w.key("final_kernel").begin_object();
      w.key("dsl").value(final_row ? json::Value(final_row->dsl) : json::Value());
      w.key("geomean_us").value(geomean ? json::Value(*geomean) : json::Value());
      // The run changed how it measures between this snapshot and the
      // final kernel (a harness re-baseline): their geomeans do not compare.
      // Written only then, so packets of runs that never did stay as they were.
      if (facts->measurement_changed_after(seg.version, *final_version))
        w.key("measured_the_same_way_as_this_kernel").value(false);
      w.end_object();
    }
    // The fastest later milestone of its own DSL measured the same way
    // (the final kernel may be in another DSL: the snapshot before a port),
    // what a reader would start from instead (kit15: the example's v3 at
    // 43.7 us beside a later Triton kernel's 31.1 us).
    if (auto later = fastest_later_in_its_dsl(seg, facts)) {
      w.key("later_kernel_of_its_dsl").begin_object();
      w.key("geomean_us").value(later->second);
      w.end_object();
    }
    // The final kernel: what the run kept after it without a new best, so
    // the kernel it ended with is another (written only when there is some).
    if (t.kept_after.size()) write_changes(w, "kept_after_it_without_a_new_best", t.kept_after);
    w.end_object();
    write_changes(w, "kept_changes_of_its_lineage", t.lineage);
  }
  if (type == "strategy") {
    w.key("builds_on").begin_object();
    // The untouched baseline only when the code builds on the previous
    // milestone itself (not on a kept step after it).
    w.key("was_the_untouched_baseline")
        .value(seg.builds_on.get("is_baseline").truthy() &&
               (span.builds_on_version.empty() || span.builds_on_version == seg.builds_on_step().version.value_or("")));
    w.key("previous_approach").value(t.previous);
    w.end_object();
    w.key("span").begin_object();
    w.key("this_step_changes_running_code").value(span.this_step_runs);
    write_changes(w, "earlier_kept_steps", t.span_changes);
    // What the run measured this step from, in its own subject, beside the
    // best-so-far the span's gain is measured against (kit16 F06: the kept
    // step between measured 115.9 -> 79.18 us but has no memory
    // measurement; this step, 78.62 -> 75.05 us, was credited 34.9 %).
    // Written only for a span, so other packets stay as they were.
    if (!span.earlier.empty() && facts) {
      auto best = facts->geomean_of(seg.measured_from().version.value_or(""));
      const auto &from = row.subject_before_us, &to = row.subject_after_us;
      if (best && from && to) {
        w.key("best_so_far_geomean_us").value(*best);
        w.key("the_run_measured_this_step_from_us").value(*from);
        w.key("the_run_measured_this_step_to_us").value(*to);
      }
    }
    w.end_object();
    write_changes(w, "kept_changes_of_its_lineage", t.lineage);
    // The run's reverted tries of this same change before it, and the kept
    // steps since the last of them: what the gain may depend on (written
    // only when the run had tried it before).
    if (!span.reverted_tries.empty()) {
      w.key("reverted_earlier_tries_of_this_change").value(static_cast<std::int64_t>(span.reverted_tries.size()));
      write_changes(w, "kept_since_its_last_reverted_try", t.kept_since_last_try);
    }
  }
}

// Where the packet came from (never agent-facing).
void write_provenance(json::Writer &w, const workspace::Segment &seg, const std::optional<Conclusion> &conclusion,
                      const scrub::Scrubber &s, const CodeFile &code, const Context &ctx, const Span &span,
                      const std::optional<DramTraffic> &dram) {
  w.begin_object();
  w.key("source_repo").value(seg.source_repo);
  w.key("version").value(seg.version);
  w.key("git_commit").value(json::Value(seg.sha));
  w.key("ncu_dirs").begin_array();
  for (const auto &dir : seg.ncu_dirs) w.value(dir);
  w.end_array();
  w.key("report_dir");
  conclusion ? w.value(conclusion->dir) : w.null();
  w.key("shape_label_note").value(std::to_string(s.labels_allocated()) + " workload hashes were relabelled shape-N");
  w.key("diff_from");
  code.diff ? write_range_end(w, *ctx.commits, code.diff->base) : void(w.null());
  w.key("diff_to");
  code.diff ? write_range_end(w, *ctx.commits, code.diff->target) : void(w.null());
  w.key("code_truncated").value(code.truncated);
  // The versions of agent_facing.span.earlier_kept_steps and of
  // kept_changes_of_its_lineage, each in its order.
  if (seg.record_type == "strategy" || seg.record_type == "reference-kernel")
    write_versions(w, "lineage_versions", span.lineage);
  if (auto later = fastest_later_in_its_dsl(seg, ctx.facts)) w.key("later_kernel_of_its_dsl").value(later->first);
  if (!span.kept_after.empty()) write_versions(w, "kept_after_it_without_a_new_best", span.kept_after);
  if (dram) {
    w.key("dram_captures").begin_array();
    w.value(dram->before.dir).value(dram->after.dir);
    w.end_array();
  }
  if (seg.record_type == "strategy") {
    write_versions(w, "span_versions", span.earlier);
    if (!span.reverted_tries.empty()) {
      w.key("reverted_earlier_tries_of_this_change").begin_array();
      for (const auto &v : span.reverted_tries) w.value(v);
      w.end_array();
    }
    // The version whose change agent_facing.builds_on.previous_approach is.
    w.key("builds_on_version");
    !span.builds_on_version.empty() ? w.value(span.builds_on_version) : w.value(seg.builds_on.get("version"));
  }
  // An anti-strategy's merged accounts of its lever and the kept steps
  // that later stated the same setting, by version (for explain).
  if (const auto *occurrences = seg.occurrences.as_array()) {
    w.key("accounts_of_this_lever").begin_array();
    for (const auto &o : *occurrences) w.value(o.get("version"));
    w.end_array();
    w.key("kept_in_the_run_with_the_same_setting").begin_array();
    if (const auto *later = seg.kept_in_the_run.as_array())
      for (const auto &k : *later) w.value(k.get("version"));
    w.end_array();
    // The versions of what the texts kept: steps whose own change runs.
    std::vector<json::Value> other_versions;
    if (const auto *other = seg.kept_with_other_settings.as_array())
      for (const auto &k : *other)
        if (own_change_runs(ctx, workspace::StepRef::of(k).version.value_or("")))
          other_versions.push_back(k.get("version"));
    if (!other_versions.empty()) {
      w.key("kept_in_the_run_with_other_settings").begin_array();
      for (const auto &v : other_versions) w.value(v);
      w.end_array();
    }
    w.key("other_accounts_that_passed_correctness").begin_array();
    for (const auto &v : accounts_that_passed(seg, ctx.facts)) w.value(v);
    w.end_array();
  }
  w.end_object();
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
    add_presented_kernel_defects(reach, diff->target, "kernel.py", ctx);
  else if (type == "reference-kernel" && ctx.repo) {
    auto source = reference_source(*ctx.repo, seg);
    add_presented_kernel_defects(reach, source.commit, source.path, ctx);
  }
  const Texts texts = scrub_texts(s, seg, row, ctx, taken_up, type, span, reach);
  CodeFile code = code_file(s, seg, ctx, type, std::move(diff));
  out.code = code.text;

  // Written as it is assembled (no tree of the packet): the agent-facing
  // layer's scalars are collected on the way, the evidence text without the
  // code (what the pre-flight scans); its length with the code is
  // evidence_text(agent_facing, code)'s.
  json::Writer w(out.text, json::Writer::Layout::Pretty);
  w.begin_object();
  w.key("seg_id").value(out.seg_id);
  w.key("record_type").value(type);
  w.key("seg_kind").value(seg.seg_kind);
  w.key("target");
  write_target(w, seg, ctx);
  w.key("agent_facing");
  std::string evidence;
  std::size_t parts = 0;
  w.collect_scalars(&evidence, &parts);
  const auto dram = dram_traffic(seg, ctx);
  write_agent_facing(w, texts, seg, row, ctx, type, span, dram);
  if (code.diff && !out.code.empty()) w.key("diff_shows").value(diff_shows(*code.diff, seg));
  w.collect_scalars(nullptr, nullptr);
  out.evidence_chars = text::code_points(evidence);
  if (!out.code.empty()) out.evidence_chars += (parts ? 1 : 0) + text::code_points(out.code);
  out.leaks = record::find_leaks(evidence, true, ctx.denylist ? ctx.denylist->regex() : nullptr);
  if (!out.code.empty()) {
    out.code_name = out.seg_id + code.ext;
    w.key(code.ext == ".diff" ? "diff_file" : "kernel_file").value(out.code_name);
    // The whole kernel after the change, so a reader of the diff can tell
    // a changed line that runs from an assignment nothing reads.
    if (code.diff && code.diff->after && !code.diff->after->empty()) {
      std::string after = s.code(*code.diff->after);
      if (!cap_at_line(after, kMaxKernelChars)) {
        out.siblings.push_back({out.seg_id + kCodeAfterSuffix, std::move(after)});
        w.key("code_after_file").value(out.siblings.back().first);
      }
    }
    // The claimed step's own change, when the diff also holds earlier steps.
    if (span.own) {
      std::string own = s.code(span.own->lexed->text, span.own->lexed->lines);
      if (!cap_at_line(own, kMaxDiffChars)) {
        out.siblings.push_back({out.seg_id + kStepDiffSuffix, std::move(own)});
        w.key("step_diff_file").value(out.siblings.back().first);
      }
    }
  }
  w.end_object();
  w.key("provenance");
  write_provenance(w, seg, texts.conclusion, s, code, ctx, span, dram);
  out.code_bytes = text::code_points(out.code);
  w.key("evidence_chars").value(out.evidence_chars);
  w.key("code_bytes").value(out.code_bytes);
  w.end_object();
  out.text += '\n';
  return out;
}

} // namespace otm::packet
