// Archive mode's table (`make -f Makefile.pipeline archive`): one row per
// trace, read from what the per-trace pipeline already wrote into its
// workspace and staging store, plus the run record the archive recipe
// writes beside them. Reads only; decides nothing about the records.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "trace/archive_listing.hpp"
#include "json/value.hpp"

namespace otm::report {

// Whether archive mode ran the trace, or what it did with an entry of
// TRACES_DIR it did not run (trace::list_archive).
enum class RowKind {
  Run,
  Refused, // a name make and the shell cannot carry: not run, a failure
  Skipped, // a symbolic link: not a trace of the archive, reported only
};

struct ArchiveRow {
  std::string trace; // the trace directory's name (control characters escaped)
  RowKind kind = RowKind::Run;
  bool failed = true;              // its per-trace make failed, or left no run record
  int exit_code = -1;              // the per-trace make's exit status (-1: no run record)
  std::string failure;             // the first diagnostic of its log, when it failed
  std::size_t versions = 0;        // ladder rows
  std::size_t milestones = 0;      // milestone, mega and final selections (the baseline excluded)
  std::size_t staged = 0;          // records in the staging store
  std::size_t packets_refused = 0; // refusal-ledger rows: packets that yielded no record
  std::size_t admitted = 0;        // staged records inserted into the live store (by their .merged ledgers)
  std::size_t confirmed = 0;       // ... that confirmed a live record
  std::size_t conflicts = 0;       // ... queued as a conflict
  std::size_t refused = 0;         // ... refused by the admission gate (work/admit-refused.txt)
  std::size_t gate_failures = 0;   // failing gates of the staging validation + live-store findings after admission
  double seconds = 0;              // wall time of its per-trace make in this run
  bool ran = false;                // whether it admitted in this run (false: nothing was stale)
  std::filesystem::path log;       // the per-trace make's output
};

// The row of the trace directory `trace_name` under the archive's scratch
// root (workspace/layout.hpp: archive_workspace). A trace with no run record
// is a failed row saying so; unreadable work files are reported, never
// thrown, so one broken trace cannot hide the others.
ArchiveRow read_archive_row(const std::filesystem::path &scratch, const std::string &trace_name);

// The row of an entry of TRACES_DIR archive mode refused or skipped: its
// name (escaped), the reason as its failure; refused rows fail the run.
ArchiveRow not_run_row(const trace::ArchiveEntry &entry);

// What the run did with the trace: "REFUSED" or "skipped" (not run); "FAILED"; "admitted" (it was (re)staged
// and its staged records offered); "nothing new" (it was restaged, but every
// packet was refused, e.g. already live: nothing to admit, a success);
// "unchanged" (nothing was stale).
std::string archive_outcome(const ArchiveRow &row);

json::Value archive_row_json(const ArchiveRow &row);

// Rows of per-trace runs made elsewhere (scripts/otm-slurm-archive: one
// array task per trace, each on its own node's scratch, each writing its
// archive-report row into a shared directory): the row of `trace_name` from
// <collected>/<trace_name>.jsonl (archive_row_json's keys), with its log
// <collected>/<trace_name>.log when present. A missing or unreadable row is
// a failed row saying so (the task did not finish), never skipped.
ArchiveRow read_collected_row(const std::filesystem::path &collected, const std::string &trace_name);
// The fixed-width table with a header and a totals line.
std::string archive_table(const std::vector<ArchiveRow> &rows);

} // namespace otm::report
