#include "report/archive_report.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <sstream>

#include "io/file.hpp"
#include "report/gate_report.hpp"
#include "store/merged_marker.hpp"
#include "store/staged_reports.hpp"
#include "store/store_reader.hpp"
#include "text/printable.hpp"
#include "workspace/ladder_verdict.hpp"
#include "workspace/layout.hpp"
#include "workspace/work_files.hpp"
#include "json/parse.hpp"

namespace otm::report {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> file_lines(const fs::path &path) {
  std::vector<std::string> out;
  if (!io::is_regular_file(path)) return out;
  std::istringstream in(io::read_file(path));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

// The run record: `exit N`, `milliseconds N`, `started_ns N` lines.
struct RunRecord {
  bool present = false;
  int exit_code = -1;
  long long milliseconds = 0, started_ns = 0;
};

RunRecord read_run_record(const fs::path &path) {
  RunRecord r;
  for (const auto &line : file_lines(path)) {
    auto sp = line.find(' ');
    if (sp == std::string::npos) continue;
    auto key = line.substr(0, sp), value = line.substr(sp + 1);
    try {
      if (key == "exit") r.exit_code = std::stoi(value), r.present = true;
      if (key == "milliseconds") r.milliseconds = std::stoll(value);
      if (key == "started_ns") r.started_ns = std::stoll(value);
    } catch (const std::exception &) {
      r.present = false; // a half-written record: treated as none
    }
  }
  return r;
}

// What stopped the per-trace make: the last line an otm tool or recipe
// printed before make's first "*** " error line (the diagnostic that names
// the file and the fix), else that line, else the log's last line.
std::string first_diagnostic(const fs::path &log) {
  auto lines = file_lines(log);
  std::string last_otm;
  for (const auto &l : lines) {
    if (l.find("*** ") != std::string::npos) return last_otm.empty() ? l : last_otm;
    if (l.starts_with("otm")) last_otm = l;
  }
  return lines.empty() ? std::string("no output (see the log)") : lines.back();
}

bool modified_since(const fs::path &file, long long unix_ns) {
  std::error_code ec;
  auto t = fs::last_write_time(file, ec);
  if (ec) return false;
  auto sys = std::chrono::file_clock::to_sys(t);
  return std::chrono::duration_cast<std::chrono::nanoseconds>(sys.time_since_epoch()).count() >= unix_ns;
}

void read_outputs(ArchiveRow &row, const workspace::Workspace &ws, std::vector<std::string> &problems) {
  try {
    if (io::is_regular_file(ws.ladder_file()))
      for (const auto &r : workspace::read_ladder_rows(ws.ladder_file().string(), config::Limits{})) {
        ++row.versions;
        const auto verdict = workspace::LadderVerdict::from_json(r).value();
        row.milestones += verdict.accepted() && verdict.selection != "baseline";
      }
  } catch (const std::exception &e) {
    problems.push_back(e.what());
  }
  workspace::StagingStore staging{ws.root / "staging"};
  for (const auto &rec : store::record_files(staging.root)) {
    ++row.staged;
    try {
      auto ledger = store::read_merged_marker(rec.path);
      const auto last = ledger ? store::last_merge(*ledger) : std::nullopt;
      if (!last) continue;
      auto action = last->action.value_or("");
      row.admitted += action == "insert";
      row.confirmed += action == "confirm";
      row.conflicts += action == "conflict";
    } catch (const std::exception &e) {
      problems.push_back(e.what());
    }
  }
  auto reports = store::read_staged_reports(staging.root, config::Limits{});
  row.packets_refused += reports.refusals.size();
  for (auto &p : reports.problems) problems.push_back(std::move(p));
  row.refused = file_lines(ws.admit_refused_file()).size();
  if (io::is_regular_file(ws.validate_report_file()))
    row.gate_failures += read_gate_report(io::read_file(ws.validate_report_file())).failed;
  row.gate_failures += file_lines(ws.live_gates_file()).size();
}

} // namespace

ArchiveRow read_archive_row(const fs::path &scratch, const std::string &trace_name) {
  ArchiveRow row;
  row.trace = trace_name;
  auto ws = workspace::archive_workspace(scratch, trace_name);
  row.log = ws.archive_log_file();
  auto run = read_run_record(ws.archive_run_file());
  std::vector<std::string> problems;
  if (io::is_directory(ws.root)) read_outputs(row, ws, problems);
  if (!run.present) {
    row.failure = "no run record " + ws.archive_run_file().string() + " (the archive recipe did not finish)";
    return row;
  }
  row.exit_code = run.exit_code;
  row.failed = run.exit_code != 0;
  row.seconds = static_cast<double>(run.milliseconds) / 1000.0;
  row.ran = !row.failed && modified_since(ws.admitted_stamp(), run.started_ns);
  if (row.failed)
    row.failure = first_diagnostic(row.log);
  else if (!problems.empty())
    row.failure = "outputs partly unreadable: " + problems.front();
  return row;
}

namespace {

// The counted columns, in table order: the JSON key, the table header, the
// field. One list for the report, the table and its totals.
struct Column {
  const char *key, *header;
  std::size_t ArchiveRow::*field;
};
const Column kColumns[] = {
    {"versions", "versions", &ArchiveRow::versions},
    {"milestones", "milestones", &ArchiveRow::milestones},
    {"staged", "staged", &ArchiveRow::staged},
    {"packets_refused", "pkt-refused", &ArchiveRow::packets_refused},
    {"admitted", "admitted", &ArchiveRow::admitted},
    {"confirmed", "confirmed", &ArchiveRow::confirmed},
    {"conflicts", "conflicts", &ArchiveRow::conflicts},
    {"refused", "refused", &ArchiveRow::refused},
    {"gate_failures", "gate-failures", &ArchiveRow::gate_failures},
};

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

} // namespace

ArchiveRow not_run_row(const trace::ArchiveEntry &entry) {
  ArchiveRow row;
  row.trace = text::escape_controls(entry.name);
  row.kind = entry.kind == trace::ArchiveEntryKind::Refused ? RowKind::Refused : RowKind::Skipped;
  row.failed = row.kind == RowKind::Refused;
  row.failure = entry.reason;
  return row;
}

std::string archive_outcome(const ArchiveRow &r) {
  if (r.kind == RowKind::Refused) return "REFUSED";
  if (r.kind == RowKind::Skipped) return "skipped";
  if (r.failed) return "FAILED";
  if (!r.ran) return "unchanged";
  return r.staged == 0 ? "nothing new" : "admitted";
}

json::Value archive_row_json(const ArchiveRow &r) {
  auto v = json::Value::object();
  v.set("trace", r.trace);
  const char *status = r.kind == RowKind::Refused   ? "refused"
                       : r.kind == RowKind::Skipped ? "skipped"
                       : r.failed                   ? "failed"
                                                    : "ok";
  v.set("status", status);
  v.set("outcome", r.kind != RowKind::Run || r.failed ? std::string(status) : archive_outcome(r));
  v.set("exit", r.exit_code);
  for (const auto &c : kColumns) v.set(c.key, r.*c.field);
  v.set("seconds", r.seconds);
  v.set("ran", r.ran);
  if (!r.failure.empty()) v.set("failure", r.failure);
  v.set("log", r.log.string());
  return v;
}

ArchiveRow read_collected_row(const fs::path &collected, const std::string &trace_name) {
  ArchiveRow row;
  row.trace = trace_name;
  auto file = collected / (trace_name + ".jsonl");
  auto log = collected / (trace_name + ".log");
  row.log = io::is_regular_file(log) ? log : file;
  std::optional<json::Value> found;
  try {
    if (io::is_regular_file(file))
      for (auto &v : json::parse_lines_file(file))
        if (v.string_or("trace") == trace_name) found = std::move(v);
  } catch (const std::exception &e) {
    row.failure = "unreadable result " + file.string() + ": " + e.what();
    return row;
  }
  if (!found) {
    row.failure = "no result " + file.string() + " (its task did not finish: see its Slurm output)";
    return row;
  }
  const auto &v = *found;
  row.failed = v.string_or("status") != "ok";
  row.exit_code = static_cast<int>(v.get("exit").as_int().value_or(-1));
  for (const auto &c : kColumns)
    row.*c.field = static_cast<std::size_t>(std::max<std::int64_t>(0, v.get(c.key).as_int().value_or(0)));
  row.seconds = v.get("seconds").as_number().value_or(0);
  row.ran = v.get("ran").truthy();
  row.failure = v.string_or("failure");
  if (!io::is_regular_file(log) && !v.string_or("log").empty()) row.log = v.string_or("log");
  return row;
}

std::string archive_table(const std::vector<ArchiveRow> &rows) {
  std::size_t width = 5;
  for (const auto &r : rows) width = std::max(width, r.trace.size());
  std::ostringstream os;
  auto pad = [&](const std::string &s, std::size_t w) { os << std::string(w > s.size() ? w - s.size() : 0, ' '); };
  auto line = [&](const std::string &trace, const std::string &status, const ArchiveRow *counts,
                  const std::string &seconds) {
    os << trace;
    pad(trace, width + 1);
    os << status;
    pad(status, 11);
    for (const auto &c : kColumns) {
      std::string cell = counts ? std::to_string(counts->*c.field) : c.header;
      pad(cell, std::string(c.header).size() + 1);
      os << cell;
    }
    pad(seconds, 8);
    os << seconds << '\n';
  };
  line("trace", "status", nullptr, "seconds");
  ArchiveRow total;
  std::size_t failed = 0;
  for (const auto &r : rows) {
    line(r.trace, archive_outcome(r), &r, seconds_text(r.seconds));
    failed += r.failed;
    for (const auto &c : kColumns) total.*c.field += r.*c.field;
    total.seconds += r.seconds;
  }
  line("total", failed ? std::to_string(failed) + " failed" : "ok", &total, seconds_text(total.seconds));
  for (const auto &r : rows)
    if (r.kind != RowKind::Run)
      os << r.trace << ": " << archive_outcome(r) << ": " << text::escape_controls(r.failure) << '\n';
    else if (r.failed)
      os << r.trace << ": FAILED: " << text::escape_controls(r.failure) << " (log: " << r.log.string() << ")\n";
  return os.str();
}

} // namespace otm::report
