// otm-explain: where a record's numbers, code and provenance come from in its trace.
// Every number, snippet line and provenance field, rebuilt from the trace
// alone (issue 14).
#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "explain/explain.hpp"
#include "explain/record_input.hpp"
#include "explain/render.hpp"
#include "explain/trace_model.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "store/record_view.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

namespace {

const char *kHelp = R"(usage: otm-explain RECORD... [--trace DIR] [--workspace DIR] [--format text|json]

Answers, for each record, "where does this come from?" from the trace
itself. RECORD is a record file, an id in the staging store (--store /
RTM_STORE) or the live store (--live / RTM_LIVE), or '-' for JSONL records
on standard input.

Reads the trace (--trace DIR / RTM_TRACE, or --trace-name with
--trace-root): its commits, memory/*.json step records, profiles/*/REPORT.md,
definition.json and workload.jsonl, which it ingests, ranks, partitions and
packs again in memory with the stages' own code; the staging and live
stores only to find ids and to number segments as otm-partition did. A
workspace (--workspace / RTM_WORKSPACE) is never needed: when one is given
and holds the record's packet, the packet is compared with the rebuilt one.

Writes to stdout, per record: every number in payload, worth.gain,
evidence.summary, retrieval.signals.metrics and evidence.raw.effect, with
the packet field it was taken from, the trace file and JSON path, commit
subject or capture-report line it is read from, and for a gain how it was
derived (the two geomeans, their versions, the formula); the ladder's
decision (the best-so-far before it and the threshold that made it a
milestone); every quoted code line with its commit pair, hunk and kernel.py
line; the provenance (trace label, commit, subject, date, verdict, whether
the commit still resolves); and what could not be explained, named.
--format json writes one JSON object per record per line.

Refuses to decide whether a record is good: it only traces it back.

Exit status: 0 everything explained; 1 something in a record cannot be
explained from the trace (listed); 2 cannot run (no trace, a RECORD that is
neither a file nor a known id, unreadable input).
)";

} // namespace

int otm_explain_main(int argc, char **argv) {
  return otm::tool::run_tool("otm-explain", [&] {
    using otm::config::Setting;
    otm::cli::Options opts("otm-explain", kHelp);
    otm::config::Settings::add_options(opts, {Setting::Trace, Setting::TraceName, Setting::TraceRoot,
                                              Setting::TraceLabel, Setting::Workspace, Setting::Store, Setting::Live,
                                              Setting::Vendor, Setting::Arch, Setting::Product, Setting::Harness,
                                              Setting::Denylist, Setting::ConfigFile});
    opts.value("format", "FORMAT", "text (default) or json (one object per record per line)");
    if (!opts.parse(argc, argv)) return otm::tool::kSuccess;
    std::string format = opts.get_or("format", "text");
    if (format != "text" && format != "json")
      throw otm::Error(otm::ErrorKind::Usage, "--format takes text or json, not '" + format + "'");
    if (opts.positionals().empty())
      throw otm::Error(otm::ErrorKind::Usage, "no RECORD given (a file, an id, or '-'; see --help)");

    auto [settings, config] = otm::tool::tool_setup(opts);
    std::optional<std::filesystem::path> staging, live, workspace;
    staging = otm::workspace::configured_store(settings);
    live = otm::workspace::live_root(settings);
    if (auto w = settings.get(Setting::Workspace)) workspace = otm::io::expand_user(*w);
    auto records = otm::explain::resolve_records(opts.positionals(), staging, live, config.limits());
    if (records.empty()) throw otm::Error(otm::ErrorKind::Usage, "no record on standard input");

    auto model = otm::explain::TraceModel::load(
        settings, config, otm::store::RecordView::from_json(records.front().record).value().scope);
    bool complete = true;
    for (const auto &r : records) {
      auto e = otm::explain::explain_record(r.record, r.file, model, workspace);
      complete = complete && e.complete();
      std::cout << (format == "json" ? otm::json::to_line(otm::explain::to_json(e)) + "\n"
                                     : otm::explain::to_text(e) + "\n");
    }
    return complete ? otm::tool::kSuccess : otm::tool::kFailure;
  });
}
