#include "report/readme.hpp"
#include "report/gate_report.hpp"
#include "report/quality_report.hpp"
#include "report/quality_section.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "error/error.hpp"
#include "gates/context.hpp"
#include "io/file.hpp"
#include "ladder/verdict.hpp"
#include "record/format_tags.hpp"
#include "store/merged_marker.hpp"
#include "store/record_view.hpp"
#include "store/staged_reports.hpp"
#include "store/store_reader.hpp"
#include "text/printable.hpp"
#include "text/pyformat.hpp"
#include "text/regex.hpp"
#include "workspace/ladder_verdict.hpp"
#include "workspace/layout.hpp"
#include "workspace/trace_meta.hpp"
#include "json/parse.hpp"

namespace otm::report {

namespace fs = std::filesystem;

namespace {

std::string cell(const json::Value &v) {
  std::string s = v.is_null() ? "-" : v.python_str();
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out.empty() ? "-" : out;
}

std::string str_or_dash(const json::Value &v) { return v.truthy() ? cell(v) : "-"; }
std::string str_or_dash(const std::string &s) { return str_or_dash(json::Value(s)); }

std::string histogram(const std::map<std::string, int> &h) {
  std::string out;
  for (const auto &[k, n] : h) out += (out.empty() ? "" : ", ") + k + "=" + std::to_string(n);
  return out.empty() ? "none" : out;
}

std::string id_tail(const std::string &id) {
  auto dot = id.rfind('.');
  return dot == std::string::npos ? id : id.substr(dot + 1);
}

std::string gain_cell(const json::Value &r) {
  const auto &gain = r.get("worth").get("gain");
  if (auto pct = gain.get("pct").as_number()) return text::fixed_signed(*pct, 2) + "%";
  if (const auto *regs = gain.get("regressions").as_array(); regs && !regs->empty())
    if (auto d = (*regs)[0].get("delta_pct").as_number()) return text::fixed_signed(*d, 2) + "%";
  return "-";
}

struct Work {
  std::optional<workspace::TraceMeta> meta;
  std::vector<json::Value> ladder; // work/ladder.jsonl: the ratchet's annotated rows
  std::size_t versions = 0;
  std::vector<json::Value> segments;
};

Work read_work(const std::optional<fs::path> &root, std::vector<std::string> &warnings) {
  Work w;
  if (!root) return w;
  workspace::Workspace ws{*root};
  if (!io::is_regular_file(ws.meta_file())) return w;
  try {
    w.meta = workspace::TraceMeta::from_json(json::parse_file(ws.meta_file()).get("meta"));
    if (io::is_regular_file(ws.versions_file())) w.versions = json::parse_lines_file(ws.versions_file()).size();
    if (io::is_regular_file(ws.segments_file())) w.segments = json::parse_lines_file(ws.segments_file());
    if (io::is_regular_file(ws.ladder_file())) {
      auto rows = json::parse_lines_file(ws.ladder_file());
      // Read here, so a mistyped verdict is a warning, not a README lost.
      workspace::read_ladder_verdicts(rows, ws.ladder_file().string());
      w.ladder = std::move(rows);
    }
  } catch (const std::exception &e) {
    warnings.push_back(e.what());
  }
  return w;
}

void trace_section(std::ostringstream &os, const Work &w) {
  const auto &m = *w.meta;
  std::string head = m.head_sha.substr(0, 12);
  os << "## The trace behind this run\n\n| | |\n|---|---|\n";
  os << "| operator | " << str_or_dash(m.operator_name) << " |\n";
  os << "| slug / family | " << str_or_dash(m.operator_slug) << " / " << str_or_dash(m.workload_family) << " |\n";
  os << "| trace label | " << str_or_dash(m.source_repo) << " |\n";
  os << "| HEAD | " << (head.empty() ? "-" : head) << " |\n";
  os << "| target | " << str_or_dash(m.vendor) << " / " << str_or_dash(m.arch) << " / " << str_or_dash(m.product)
     << " |\n";
  os << "| target basis | " << str_or_dash(m.arch_basis) << " |\n";
  os << "| harness | " << str_or_dash(m.harness) << " |\n";
  os << "| benchmarked shapes | " << cell(m.n_shapes) << " |\n";
  os << "| versions parsed | " << w.versions << " |\n";
  os << "| segments cut | " << w.segments.size() << " |\n\n";
  if (!w.segments.empty()) {
    std::map<std::string, int> by_type;
    for (const auto &s : w.segments) ++by_type[s.string_or("record_type", "?")];
    os << "Segments by type: " << histogram(by_type)
       << ". An anti-strategy segment whose packet supports no checkable condition and causal mechanism must not "
          "be written up.\n\n";
  }
}

void records_section(std::ostringstream &os, const std::vector<store::StoredRecord> &recs) {
  os << "## Records\n\n";
  if (recs.empty()) {
    os << "No records are staged yet: build packets, distil them, then run otm-validate and otm-score.\n\n";
    return;
  }
  os << "```\nrecords/<type>/<vendor>/<arch>/<dsl>/<operator_family>/<id>.json\n```\n\n"
     << "The directories agree with each record's `retrieval.scope` (the layout gate checks it).\n\n";
  std::map<std::vector<std::string>, int> cells;
  std::map<std::string, int> types, tiers, bases;
  for (const auto &r : recs) {
    // Every staged record is counted, a field of another type as absent.
    const auto v = store::RecordView::shown(r.record);
    ++cells[{v.type.value_or("?"), v.scope.arch.value_or("?"), v.scope.dsl.value_or("any"),
             v.scope.operator_family.value_or("misc")}];
    ++types[v.type.value_or("?")];
    ++tiers[v.tier.value_or("(none)")];
    ++bases[v.gain_basis.value_or("(none)")];
  }
  std::vector<std::pair<std::vector<std::string>, int>> rows(cells.begin(), cells.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  os << "Records by type: " << histogram(types) << ".\n\n";
  os << "| type | arch | dsl | operator family | records |\n|---|---|---|---|---|\n";
  for (const auto &[k, n] : rows)
    os << "| " << k[0] << " | " << k[1] << " | " << k[2] << " | " << k[3] << " | " << n << " |\n";
  // Each record with its id, read once for the sort and the row.
  std::vector<std::pair<std::string, const store::StoredRecord *>> by_id;
  for (const auto &r : recs) by_id.emplace_back(store::RecordView::shown(r.record).id.value_or(""), &r);
  std::stable_sort(by_id.begin(), by_id.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  os << "\n| id tail | type | tier | score | gain | basis | version |\n|---|---|---|---|---|---|---|\n";
  for (const auto &[id, r] : by_id) {
    const auto &rec = r->record;
    const auto &rank = rec.get("worth").get("rank");
    os << "| " << cell(json::Value(id_tail(id))) << " | " << str_or_dash(rec.get("type")) << " | "
       << str_or_dash(rank.get("tier")) << " | " << cell(rank.get("score")) << " | " << gain_cell(rec) << " | "
       << str_or_dash(rec.get("worth").get("gain").get("basis")) << " | "
       << str_or_dash(rec.get("evidence").get("raw").get("version")) << " |\n";
  }
  os << "\nTiers: " << histogram(tiers) << ". Gain bases: " << histogram(bases) << ".\n\n";
}

// The verdict otm-validate printed, if its console output was saved.
void gate_section(std::ostringstream &os, const std::optional<fs::path> &report, std::vector<std::string> &warnings,
                  bool &gates_passed) {
  os << "## Gate status\n\n";
  gates_passed = false;
  std::string text;
  if (report) {
    try {
      text = io::read_file(*report);
    } catch (const std::exception &e) {
      warnings.push_back(e.what());
    }
  }
  if (text.empty()) {
    os << "**Not recorded.** No gate report was given, so this file cannot say whether the staged records pass the "
          "gates. Run `otm-validate` and pass its saved output with `--gate-report`.\n\n";
    return;
  }
  auto parsed = read_gate_report(text);
  const auto &lines = parsed.lines;
  gates_passed = parsed.passed();
  os << "Verdict from `" << report->filename().string() << "`: **"
     << (parsed.verdict ? parsed.verdict_line : std::string("no verdict line found (the report is incomplete)"))
     << "**\n\n";
  if (!lines.empty()) {
    os << "```\n";
    for (const auto &l : lines) os << l << "\n";
    os << "```\n\n";
  }
}

// Links to what shows a run at a glance: each trace's ladder picture
// (otm-recon) and the review page (otm-review), where present.
void pictures_section(std::ostringstream &os, const fs::path &staging_root, const store::StagedReports &reports) {
  std::vector<std::string> links;
  for (const auto &slug : reports.ladder_slugs) {
    auto shown = text::escape_controls(slug);
    std::string rel = workspace::StagingStore::report_relpath(shown, workspace::StagingStore::kLadderPictureFileName);
    links.push_back("the ladder of `" + shown + "`: [" + rel + "](" + rel + ")");
  }
  if (io::is_regular_file(workspace::StagingStore{staging_root}.review_page()))
    links.push_back("every record with its gate verdicts and quoted code: [review.html](review.html)");
  if (links.empty()) return;
  os << "At a glance: ";
  for (std::size_t i = 0; i < links.size(); ++i) os << (i ? "; " : "") << links[i];
  os << ".\n\n";
}

void refusals_section(std::ostringstream &os, const store::StagedReports &reports, std::vector<std::string> &warnings) {
  os << "## Refusals from distillation\n\n";
  const auto &rows = reports.refusals;
  for (const auto &p : reports.problems) warnings.push_back(p);
  if (rows.empty()) {
    os << "No refusal ledger (`reports/<slug>/refusals.jsonl`) records a refused packet.\n\n";
    return;
  }
  os << rows.size()
     << " packet(s) were refused and produced no record (a gate's name where a gate refused the draft):\n\n"
        "| segment | type | gate | refused | why |\n|---|---|---|---|---|\n";
  for (const auto &r : rows)
    os << "| " << str_or_dash(r.get("seg_id")) << " | " << str_or_dash(r.get("record_type")) << " | "
       << str_or_dash(r.get("gate")) << " | " << str_or_dash(r.get("refused")) << " | " << str_or_dash(r.get("why"))
       << " |\n";
  os << "\n";
}

void live_section(std::ostringstream &os, const std::vector<store::StoredRecord> &recs) {
  os << "## What is not in the live store\n\n"
     << "Nothing in this directory is served. A staged record reaches the live store only through "
        "`otm-wiki-gate commit`; this file claims nothing about the live store's contents.\n\n";
  std::vector<std::string> pending, other;
  for (const auto &r : recs) {
    std::string id = store::RecordView::shown(r.record).id.value_or(r.relpath);
    std::optional<json::Value> ledger;
    try {
      ledger = store::read_merged_marker(r.path);
    } catch (const std::exception &) {
      ledger = std::nullopt;
    }
    const auto last = ledger ? store::last_merge(*ledger) : std::nullopt;
    if (!last) {
      pending.push_back(id);
      continue;
    }
    other.push_back("`" + id + "`: " + last->action.value_or("?") +
                    (last->target ? " against `" + *last->target + "`" : "") + " (" + last->merged_at.value_or("?") +
                    ")");
  }
  os << "* Not yet submitted to the gate (" << pending.size() << "):";
  if (pending.empty()) os << " none";
  os << "\n";
  for (const auto &id : pending) os << "  * `" << id << "`\n";
  os << "* Submitted, by the last action in each sidecar `.merged` ledger (" << other.size()
     << "; a confirm adds a count to another record and a conflict waits in `conflicts/` for a human, so neither "
        "puts this record's text in the live store):";
  if (other.empty()) os << " none";
  os << "\n";
  for (const auto &line : other) os << "  * " << line << "\n";
  os << "\n";
}

// The quality signals of the staged records, their packets read from the
// workspace (as the gates read them); without one, only the signals that
// need no packet.
QualityReport quality_of(const std::vector<store::StoredRecord> &recs, const ReadmeInputs &in,
                         std::vector<std::string> &warnings) {
  gates::Context ctx;
  ctx.store_root = in.staging_root;
  for (const auto &r : recs) ctx.records.push_back({r.relpath, r.path, r.record, r.parse_error});
  if (in.workspace_root) {
    try {
      ctx.packets = gates::load_packets(*in.workspace_root);
    } catch (const std::exception &e) {
      warnings.push_back(std::string("quality signals without packets: ") + e.what());
    }
  }
  return quality_report(ctx, in.quality);
}

} // namespace

Readme make_readme(const ReadmeInputs &in) {
  Readme out;
  std::vector<store::StoredRecord> recs;
  for (auto &r : store::load_records(in.staging_root)) {
    if (!r.parse_error.empty())
      out.warnings.push_back("skipped unreadable record: " + r.parse_error);
    else if (!r.record.is_object())
      out.warnings.push_back("skipped " + r.relpath + ": not a JSON object");
    else
      recs.push_back(std::move(r));
  }
  Work work = read_work(in.workspace_root, out.warnings);
  if (recs.empty() && !work.meta)
    throw Error(ErrorKind::NegativeVerdict,
                "nothing to summarise: no staged records under " + workspace::records_dir(in.staging_root).string() +
                    " and no work/meta.json (set --workspace / RTM_WORKSPACE, or run ingest and distil first)");
  std::ostringstream os;
  os << "# Staged optimisation-trace records\n\n";
  // What the run achieved, first (the ratchet's verdict, as recon.md opens).
  if (work.meta && !work.ladder.empty()) os << ladder::ratchet_verdict(work.ladder, *work.meta) << "\n\n";
  os << "Generated by otm-readme from the staging store" << (in.generated_at ? " at " + *in.generated_at : "")
     << "; do not edit.\n\n"
     << "> **Nothing here is served.** The admission gate (`otm-wiki-gate match`, a decision, then "
        "`otm-wiki-gate commit`) is the only way into the live store.\n\n";
  // The store's reports/, read beneath it (a link out of it is named, never read).
  const auto reports = store::read_staged_reports(in.staging_root, config::Limits{});
  pictures_section(os, in.staging_root, reports);
  if (work.meta) trace_section(os, work);
  records_section(os, recs);
  bool gates_passed = false;
  gate_section(os, in.gate_report, out.warnings, gates_passed);
  if (!recs.empty()) os << quality_section(quality_of(recs, in, out.warnings), in.quality);
  refusals_section(os, reports, out.warnings);
  live_section(os, recs);
  os << "## How to read one record\n\n| layer | for whom | content |\n|---|---|---|\n"
     << "| `retrieval` | the retrieval engine | scope filter and recall signals |\n"
     << "| `payload` | the agent | the self-contained knowledge |\n"
     << "| `evidence.summary` | the agent | how it was measured and how sure it is |\n"
     << "| `evidence.raw` | humans only | provenance: trace, version, commit, absolute numbers |\n"
     << "| `worth` | the agent and the ranking | gain, score and tier |\n\n";
  os << "## Trust boundaries\n\n"
     << "* Provenance is the trace plus the commit (`evidence.raw`).\n"
     << "* Absolute latencies live only in `evidence.raw.effect`.\n"
     << "* `basis=measured` does not imply comparability: check `comparable`.\n";
  if (gates_passed)
    os << "* The gate report above passed: every number and snippet was checked against its packet and diff, and "
          "every anti-strategy states an established fact.\n";
  else
    os << "* Until a passing gate report is recorded above, no check of numbers, snippets or established facts is "
          "claimed for these records.\n";
  os << "\nPer-trace reports: `" << workspace::kReportsDirName << "/<slug>/`. Schema: `schema/kernel/schema.json` (`"
     << record::kStoreSchemaTag << "`); profile `opt-trace-1.0`.\n";
  out.text = os.str();
  return out;
}

} // namespace otm::report
