// otm-archive-report: archive mode's per-trace table and archive-report.jsonl.
#include <iostream>

#include "cmdline/options.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "report/archive_report.hpp"
#include "tool/exit_codes.hpp"
#include "trace/archive_listing.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

using namespace otm;

static const char *kHelp =
    R"(usage: otm-archive-report --scratch DIR [--traces-dir DIR] [--report FILE|-] [--] [TRACE...]
       otm-archive-report --collected DIR [--traces-dir DIR] [--report FILE|-] [--] [TRACE...]

The closing step of `make -f Makefile.pipeline archive`: one row per trace
(its directory name, or its path), read from what its per-trace pipeline
wrote into <scratch>/<trace name>/.

With --traces-dir, also one row per entry of that archive that archive
mode does not run (as otm-archive-list lists it): a directory whose name
make and the shell cannot carry, "refused" (a failure), and a symbolic link
to a trace, "skipped"; without TRACE arguments, a row for each of its
traces too.

With --collected, the closing step of scripts/otm-slurm-archive: the rows
were made elsewhere (one Slurm array task per trace, each an archive run of
its trace in node-local scratch) and collected into DIR as <trace
name>.jsonl (that run's report) and <trace name>.log (its log); a trace
without one is reported failed (its task did not finish).

Reads:  per trace, under <scratch>/<trace name>/: work/archive-run.txt (the
        per-trace make's exit status and duration, written by the archive
        recipe), work/archive.log, work/ladder.jsonl, work/validate.txt,
        work/admit-refused.txt, work/live-gates.jsonl, .stamps/admitted, and
        the staging store's records with their .merged ledgers and
        reports/*/refusals.jsonl.
Writes: the table on stdout (status, versions, milestones, staged, packets
        refused, admitted, confirmed, conflicts, refused by the admission
        gate, gate failures, seconds), and one JSON object per trace to
        --report (default <scratch>/archive-report.jsonl, or beside the
        --collected directory; - for stdout
        instead of the table), replaced atomically.
Refuses to decide: anything about a record; a trace without a run record is
        reported failed, never skipped. Names are shown with control
        characters and bytes that are not UTF-8 escaped (\xNN).

Exit: 0 every trace succeeded; 1 at least one failed or was refused (named in the table);
2 bad arguments or an unwritable report.
)";

int otm_archive_report_main(int argc, char **argv) {
  return tool::run_tool("otm-archive-report", [&] {
    cli::Options opts("otm-archive-report", kHelp);
    opts.value("scratch", "DIR", "the archive's scratch root (OTM_SCRATCH of the make run)");
    opts.value("collected", "DIR", "read each trace's row from DIR/<trace>.jsonl (runs made elsewhere)");
    opts.value("report", "FILE", "where to write the JSONL report (default <scratch>/archive-report.jsonl)");
    opts.value("traces-dir", "DIR",
               "the archive: report its refused names and skipped links (and, without TRACE "
               "arguments, its traces)");
    if (!opts.parse(argc, argv)) return 0;
    auto scratch = opts.get("scratch");
    auto collected = opts.get("collected");
    if (!scratch == !collected)
      throw Error(ErrorKind::Usage, "give either --scratch DIR (the archive's OTM_SCRATCH) or --collected DIR");
    auto traces_dir = opts.get("traces-dir");
    if (opts.positionals().empty() && !traces_dir)
      throw Error(ErrorKind::Usage,
                  "name at least one trace (its directory name or path), or give --traces-dir DIR; see --help");
    // The traces to read rows of, and the archive's entries not run, in name order.
    std::vector<std::string> names;
    std::vector<trace::ArchiveEntry> not_run;
    if (traces_dir)
      for (auto &e : trace::list_archive(*traces_dir)) {
        if (e.kind != trace::ArchiveEntryKind::Trace)
          not_run.push_back(std::move(e));
        else if (opts.positionals().empty())
          names.push_back(e.name);
      }
    for (const auto &t : opts.positionals()) {
      auto name = std::filesystem::path(t).filename().string();
      if (name.empty()) name = std::filesystem::path(t).parent_path().filename().string();
      names.push_back(name);
    }
    std::vector<report::ArchiveRow> rows;
    for (const auto &name : names)
      rows.push_back(scratch ? report::read_archive_row(*scratch, name) : report::read_collected_row(*collected, name));
    for (const auto &e : not_run) rows.push_back(report::not_run_row(e));
    std::string jsonl;
    bool failed = false;
    for (const auto &r : rows) {
      jsonl += json::to_line(report::archive_row_json(r)) + "\n";
      failed = failed || r.failed;
    }
    auto root = scratch ? std::filesystem::path(*scratch)
                        : std::filesystem::absolute(*collected).lexically_normal().parent_path();
    auto dest = opts.get_or("report", workspace::archive_report_file(root).string());
    if (dest == "-") {
      std::cout << jsonl;
    } else {
      io::write_file_atomic(dest, jsonl, io::FileClass::Scratch);
      std::cout << report::archive_table(rows) << "report: " << dest << '\n';
    }
    return static_cast<int>(failed ? tool::kFailure : tool::kSuccess);
  });
}
