#include "explain/sources.hpp"

#include "gates/record_numbers.hpp"
#include "io/file.hpp"
#include "packet/report_conclusion.hpp"
#include "text/utf8.hpp"
#include "trace/step_record.hpp"
#include "workspace/ladder_verdict.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::explain {

namespace fs = std::filesystem;

std::string text_of_value(const json::Value &v) {
  if (const auto *s = v.as_string()) return *s;
  if (v.is_null()) return "";
  if (v.is_array() || v.is_object()) return json::to_line(v);
  return v.python_str();
}

namespace {

bool starts(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The step record of a version row, parsed from the trace (null when the
// row has none or it no longer parses).
json::Value raw_step_record(const TraceModel &m, const workspace::VersionRow &row) {
  const std::string &file = row.memory_file;
  if (file.empty()) return {};
  try {
    return json::parse_file(m.location().trace / "memory" / file);
  } catch (const std::exception &) {
    return {};
  }
}

// A step-record field of `row`, or each element of a list field.
void step_sources(const TraceModel &m, const workspace::VersionRow *row, const std::string &field,
                  std::vector<Source> &out, bool per_element = false) {
  if (!row) return;
  std::string path = trace::step_record_path(field, row->geomean_source.value_or(""));
  if (path.empty()) return;
  json::Value raw = raw_step_record(m, *row);
  const json::Value &at = gates::at_path(raw, path);
  std::string file = "memory/" + row->memory_file;
  if (per_element && at.is_array()) {
    // An entry that is an object is one source per member, so a locator
    // names the very string ("open_directions[0].direction").
    for (std::size_t i = 0; i < at.size(); ++i) {
      const auto &e = (*at.as_array())[i];
      std::string where = path + "[" + std::to_string(i) + "]";
      if (const auto *members = e.as_object())
        for (const auto &[k, v] : *members) out.push_back({"step-record", file, where + "." + k, text_of_value(v)});
      else
        out.push_back({"step-record", file, where, text_of_value(e)});
    }
  } else if (per_element && at.is_object()) {
    for (const auto &[k, v] : *at.as_object()) out.push_back({"step-record", file, path + "." + k, text_of_value(v)});
  } else if (!at.is_null()) {
    out.push_back({"step-record", file, path, text_of_value(at)});
  }
}

void commit_sources(const workspace::VersionRow *row, bool subject, bool body, std::vector<Source> &out) {
  if (!row || !row->has_commit) return;
  const std::string &sha = row->sha;
  if (subject) out.push_back({"commit", "git", "commit " + sha + " subject", row->subject});
  if (body && !row->body.empty()) out.push_back({"commit", "git", "commit " + sha + " body", row->body});
}

// The lines of the capture report the packet quoted that are part of the
// quoted paragraph (conclusion or evidence), one source per line.
void report_sources(const SourceContext &c, bool evidence, std::vector<Source> &out) {
  std::string dir = c.provenance.report_dir.value_or("");
  if (dir.empty()) return;
  fs::path file = c.model.location().trace / "profiles" / dir / "REPORT.md";
  if (!io::is_regular_file(file)) return;
  std::string report = text::replace_invalid_utf8(io::read_file(file));
  auto quoted = evidence ? packet::evidence_of(report) : packet::conclusion_of(report);
  if (!quoted) return;
  // The quoted paragraph is a substring of the report (an anchor's group,
  // stripped, or the head of the file): the lines it spans are its source.
  std::size_t at = report.find(*quoted);
  if (at == std::string::npos) return;
  const std::size_t end = at + quoted->size();
  std::size_t pos = 0, line = 1;
  while (pos < report.size() && pos < end) {
    auto nl = report.find('\n', pos);
    std::size_t stop = nl == std::string::npos ? report.size() : nl;
    auto stripped = text::strip(std::string_view(report).substr(pos, stop - pos));
    if (stop >= at && !stripped.empty())
      out.push_back(
          {"capture-report", "profiles/" + dir + "/REPORT.md", "line " + std::to_string(line), std::string(stripped)});
    if (nl == std::string::npos) break;
    pos = nl + 1;
    ++line;
  }
}

json::Value definition(const TraceModel &m) {
  try {
    auto f = m.location().trace / "definition.json";
    if (io::is_regular_file(f)) return json::parse_file(f);
  } catch (const std::exception &) {
  }
  return {};
}

// workload.jsonl as the trace holds it: where a shape's axes are read.
std::string workload_text(const TraceModel &m) {
  try {
    auto f = m.location().trace / "workload.jsonl";
    if (io::is_regular_file(f)) return text::replace_invalid_utf8(io::read_file(f));
  } catch (const std::exception &) {
  }
  return {};
}

// "[3].direction" -> 3 (the index after a list field's name).
std::size_t index_after(const std::string &path, std::size_t at) {
  std::size_t n = 0;
  for (std::size_t i = at + 1; i < path.size() && path[i] >= '0' && path[i] <= '9'; ++i) n = n * 10 + (path[i] - '0');
  return n;
}

} // namespace

std::vector<Source> sources_of(const std::string &path, const SourceContext &c) {
  std::vector<Source> out;
  const TraceModel &m = c.model;
  const std::string &version = c.typed.version;
  const json::Value *row = m.row(version);
  const workspace::VersionRow *typed = m.version_row(version);
  if (!starts(path, "agent_facing.")) {
    out.push_back({"otm", "", path, ""}); // target: ids and placement otm allocated
    return out;
  }
  const std::string p = path.substr(std::string("agent_facing.").size());
  auto otm_text = [&] { out.push_back({"otm", "", path, text_of_value(gates::at_path(c.packet, path))}); };

  if (starts(p, "operator.what_it_computes")) {
    out.push_back({"definition", "definition.json", "description", text_of_value(definition(m).get("description"))});
  } else if (starts(p, "operator.fixed_axes.")) {
    std::string axis = p.substr(std::string("operator.fixed_axes.").size());
    out.push_back({"definition", "definition.json", "axes." + axis + ".value",
                   text_of_value(definition(m).get("axes").get(axis).get("value"))});
  } else if (starts(p, "operator.variable_axes")) {
    out.push_back({"definition", "definition.json", "axes", text_of_value(definition(m).get("axes"))});
  } else if (starts(p, "operator.n_benchmarked_shapes")) {
    out.push_back({"workload", "workload.jsonl", "count of non-blank lines", text_of_value(m.meta().get("n_shapes"))});
  } else if (starts(p, "operator.benchmarked_values.") || starts(p, "operator.benchmarked_shapes[")) {
    out.push_back({"workload-axes", "workload.jsonl", "axes of its lines", workload_text(m)});
  } else if (starts(p, "operator.harness")) {
    out.push_back({"setting", "", "RTM_HARNESS / --harness, the registry's harness, or otm's default",
                   text_of_value(m.meta().get("harness"))});
  } else if (starts(p, "what_the_run_said.change")) {
    step_sources(m, typed, "action_description", out);
  } else if (starts(p, "what_the_run_said.commit_subject")) {
    commit_sources(typed, true, false, out);
  } else if (starts(p, "what_the_run_said.commit_body") || starts(p, "what_the_run_said.causal_sentences")) {
    commit_sources(typed, false, true, out);
  } else if (starts(p, "what_the_run_said.category_hint")) {
    step_sources(m, typed, "action_category", out);
  } else if (starts(p, "what_the_run_said.gate_verdict")) {
    step_sources(m, typed, "gate_failure", out);
  } else if (starts(p, "what_the_run_said.expected_impact")) {
    step_sources(m, typed, "expected_impact", out);
  } else if (starts(p, "what_the_run_said.directions_taken_up")) {
    // Earlier versions' open directions that this step took up.
    for (const auto &r : m.versions()) {
      if (r.version == version) break;
      step_sources(m, &r, "open_directions", out, true);
    }
  } else if (starts(p, "measurements.geomean_us")) {
    step_sources(m, typed, "geomean_us", out);
  } else if (starts(p, "measurements.arith_mean_us")) {
    step_sources(m, typed, "arith_mean_us", out);
  } else if (starts(p, "measurements.per_shape_") && p.ends_with(".shape")) {
    // A label the scrubber allocated for a workload key: the number in
    // "shape-3" counts shapes, it measures nothing.
    out.push_back({"label", "", path, text_of_value(gates::at_path(c.packet, path))});
  } else if (starts(p, "measurements.per_shape_") && p.find(".axes.") != std::string::npos) {
    out.push_back({"workload-axes", "workload.jsonl", "axes of the shape's line", workload_text(m)});
  } else if (starts(p, "measurements.per_shape_latency")) {
    step_sources(m, typed, "by_shape", out, true);
  } else if (starts(p, "measurements.per_shape_vs_measured_against")) {
    // A shape's latencies: before at the version the step is measured
    // against, after at the step itself; the change is otm's arithmetic.
    if (p.ends_with(".before_us") || p.ends_with(".after_us")) {
      const workspace::VersionRow *at =
          p.ends_with(".after_us") ? typed : m.version_row(c.typed.measured_from().version.value_or(""));
      step_sources(m, at, "by_shape", out, true);
    } else {
      // change_pct: otm's arithmetic on the two latencies (explain.cpp
      // derives it).
      out.push_back({"shape-change", "", path, text_of_value(gates::at_path(c.packet, path))});
    }
  } else if (starts(p, "measurements.re_measured_by_the_run[")) {
    // The i-th variant of this version's step record with a geomean
    // (workspace::TraceMeta::re_measurements_in): its own file; the gain
    // over the best-so-far is otm's arithmetic.
    const auto all = m.re_measurements();
    const std::size_t i = index_after(p, p.find('['));
    if (const auto it = all.find(version); it != all.end() && i < it->second.size()) {
      const auto &r = it->second[i];
      if (p.ends_with(".geomean_us"))
        out.push_back({"step-record", "memory/" + r.file, "performance.latency_us_geomean",
                       json::Value(r.geomean_us).python_str()});
      else if (p.ends_with(".correctness_status"))
        out.push_back({"step-record", "memory/" + r.file, "correctness.status", text_of_value(r.correctness_status)});
      else
        out.push_back({"arithmetic", "", "otm's (re-measured geomean / best-so-far geomean) on the step records",
                       text_of_value(gates::at_path(c.packet, path))});
    }
  } else if (starts(p, "its_earlier_tries_slower_than_tried_on_pct[")) {
    // otm's arithmetic on the i-th earlier try's geomean and the last kept
    // step's before it (provenance.reverted_earlier_tries_of_this_change).
    out.push_back({"arithmetic", "", "otm's (try geomean / geomean of the last kept step before it - 1) x 100",
                   text_of_value(gates::at_path(c.packet, path))});
  } else if (starts(p, "measurements.slower_than_tried_on_pct")) {
    // otm's arithmetic on two step records' geomeans (explain.cpp derives it).
    out.push_back({"geomean-change", "", path, text_of_value(gates::at_path(c.packet, path))});
  } else if (starts(p, "measurements.correctness.status")) {
    step_sources(m, typed, "correctness_status", out);
  } else if (starts(p, "measurements.correctness.max_abs_err")) {
    step_sources(m, typed, "max_abs_err", out);
  } else if (starts(p, "measurements.correctness.max_rel_err")) {
    step_sources(m, typed, "max_rel_err", out);
  } else if (starts(p, "measurements.improve_pct_vs_best_so_far")) {
    out.push_back({"ladder", "", "the ladder's improvement over the best-so-far",
                   text_of_value(row ? json::Value(workspace::LadderVerdict::from_json(*row).value().improve_pct)
                                     : json::Value())});
  } else if (starts(p, "profiler.conclusion")) {
    report_sources(c, false, out);
  } else if (starts(p, "profiler.evidence")) {
    report_sources(c, true, out);
  } else if (starts(p, "open_directions[")) {
    // The i-th kept entry is the i-th object entry of the list.
    std::size_t want = index_after(p, p.find('[')), seen = 0;
    if (typed) {
      const auto &list = typed->open_directions;
      for (std::size_t j = 0; j < list.size(); ++j) {
        if (!(*list.as_array())[j].is_object()) continue;
        if (seen++ != want) continue;
        std::vector<Source> all;
        step_sources(m, typed, "open_directions", all, true);
        const std::string entry = "[" + std::to_string(j) + "]";
        for (auto &s : all)
          if (s.locator.find(entry) != std::string::npos) out.push_back(std::move(s));
      }
    }
  } else if (starts(p, "pitfalls_recorded_here") || starts(p, "how_it_was_fixed")) {
    step_sources(m, typed, "pitfalls", out, true);
  } else if (starts(p, "the_failed_lever")) {
    commit_sources(typed, true, true, out);
    step_sources(m, typed, "pitfalls", out, true);
  } else if (starts(p, "span.earlier_kept_steps[") || starts(p, "kept_changes_of_its_lineage[")) {
    // The i-th earlier kept step of the span (provenance.span_versions), or
    // of the record's lineage (provenance.lineage_versions).
    std::size_t i = index_after(p, p.find('['));
    const auto &versions = starts(p, "span.") ? c.provenance.span_versions : c.provenance.lineage_versions;
    if (i < versions.size()) {
      const workspace::VersionRow *step = m.version_row(versions[i]);
      step_sources(m, step, "action_description", out);
      commit_sources(step, true, false, out);
    }
  } else if (starts(p, "builds_on.previous_approach")) {
    // The step the packet says the code builds on (provenance), else the
    // previous milestone (a packet from before it said).
    const auto &on = c.provenance.builds_on_version;
    step_sources(m, m.version_row(on ? *on : c.typed.builds_on_step().version.value_or("")), "action_description", out);
  } else {
    // operator.gpu / dsl, category labels, split_instruction,
    // established_fact_required, diff_shows, the sibling file names.
    otm_text();
  }
  return out;
}

} // namespace otm::explain
