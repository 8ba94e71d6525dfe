// otm-archive-report: archive mode's per-trace table and archive-report.jsonl.
#include <iostream>

#include "cmdline/options.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "report/archive_report.hpp"
#include "tool/exit_codes.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

using namespace otm;

static const char *kHelp =
    R"(usage: otm-archive-report --scratch DIR [--report FILE|-] TRACE...
       otm-archive-report --collected DIR [--report FILE|-] TRACE...

The closing step of `make -f Makefile.pipeline archive`: one row per trace
(its directory name, or its path), read from what its per-trace pipeline
wrote into <scratch>/<trace name>/.

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
        reported failed, never skipped.

Exit: 0 every trace succeeded; 1 at least one failed (named in the table);
2 bad arguments or an unwritable report.
)";

int otm_archive_report_main(int argc, char **argv) {
  return tool::run_tool("otm-archive-report", [&] {
    cli::Options opts("otm-archive-report", kHelp);
    opts.value("scratch", "DIR", "the archive's scratch root (OTM_SCRATCH of the make run)");
    opts.value("collected", "DIR", "read each trace's row from DIR/<trace>.jsonl (runs made elsewhere)");
    opts.value("report", "FILE", "where to write the JSONL report (default <scratch>/archive-report.jsonl)");
    if (!opts.parse(argc, argv)) return 0;
    auto scratch = opts.get("scratch");
    auto collected = opts.get("collected");
    if (!scratch == !collected)
      throw Error(ErrorKind::Usage, "give either --scratch DIR (the archive's OTM_SCRATCH) or --collected DIR");
    if (opts.positionals().empty())
      throw Error(ErrorKind::Usage, "name at least one trace (its directory name or path; see --help)");
    std::vector<report::ArchiveRow> rows;
    std::string jsonl;
    bool failed = false;
    for (const auto &t : opts.positionals()) {
      auto name = std::filesystem::path(t).filename().string();
      if (name.empty()) name = std::filesystem::path(t).parent_path().filename().string();
      rows.push_back(scratch ? report::read_archive_row(*scratch, name) : report::read_collected_row(*collected, name));
      jsonl += json::to_line(report::archive_row_json(rows.back())) + "\n";
      failed = failed || rows.back().failed;
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
