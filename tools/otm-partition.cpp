// otm-partition: the ladder's versions -> work/segments.jsonl and partition.md.
// One segment per record-to-be, and reports/<slug>/partition.md (spec
// partition.md).
#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "io/file.hpp"
#include "levers/lever_vocabulary.hpp"
#include "otm_tools.hpp"
#include "partition/inputs.hpp"
#include "partition/partition.hpp"
#include "tool/exit_codes.hpp"
#include "tool/kept_until_exit.hpp"
#include "tool/large_heap_pages.hpp"
#include "tool/tool_setup.hpp"
#include "trace/trace_location.hpp"
#include "json/write.hpp"

namespace {

const char *kHelp = R"(usage: otm-partition [options]

Reads otm-ladder's output (work/ladder.jsonl, or --ladder FILE, '-' for
stdin), work/meta.json and work/profiles.jsonl of the workspace, the live
store (--live DIR / RTM_LIVE, the directory holding records/), the staging
store (--store), the previous run's work/segments.jsonl, and whether
versions/kernel_<ver>.py snapshots exist in the trace.

Writes work/segments.jsonl (or --output FILE, '-' for stdout): one segment
per record-to-be (strategy per milestone, anti-strategy per failed lever:
the run's dead-end items, prose dead-ends and curated pitfalls of one lever
at one stated value are one segment listing every occurrence,
reference-kernel for the final kernel and each mega snapshot), with ids numbered above other traces' ids in the
live and staging stores and kept stable for segments this trace already
numbered; and <store>/reports/<slug>/partition.md. A summary goes to stderr.

Refuses to decide whether a dead-end is a fact: it only flags it
(fact_precheck); the distiller decides and the gates enforce.

Exit status: 0 written; 1 an id or segment would repeat, or an id is already
in the live store (nothing written); 2 cannot run (no trace, missing or
malformed work files, unreadable store).
)";

} // namespace

int otm_partition_main(int argc, char **argv) {
  otm::tool::use_large_heap_pages();
  return otm::tool::run_tool("otm-partition", [&] {
    using otm::config::Setting;
    otm::cli::Options opts("otm-partition", kHelp);
    otm::config::Settings::add_options(opts,
                                       {Setting::Trace, Setting::TraceName, Setting::TraceRoot, Setting::TraceLabel,
                                        Setting::Workspace, Setting::Store, Setting::Live, Setting::ConfigFile});
    opts.value("ladder", "FILE", "otm-ladder output; '-' for stdin (default <workspace>/work/ladder.jsonl)");
    opts.value("output", "FILE", "where segments go; '-' for stdout (default <workspace>/work/segments.jsonl)");
    opts.short_alias('o', "output");
    opts.flag("quiet", "do not print the summary");
    if (!opts.parse(argc, argv)) return otm::tool::kSuccess;
    otm::tool::refuse_positionals(opts);

    auto [settings, config, loc] = otm::tool::trace_tool_setup(opts);
    const auto &ws = loc.workspace;

    otm::partition::Sources src;
    src.ladder = opts.get_or("ladder", ws.ladder_file().string());
    src.meta = ws.meta_file();
    src.profiles = ws.profiles_file();
    src.live = otm::workspace::live_root(settings);
    src.staging = loc.store.root;
    src.trace = loc.trace;
    src.previous = ws.segments_file();
    src.prose_min_chars = config.ladder().deadend_min_chars;
    src.limits = config.limits();
    src.levers = otm::levers::LeverVocabulary::from_config(config);
    // Held until exit: freeing every row and segment one by one just before
    // the process ends cost more than writing them.
    const auto &in = otm::tool::kept_until_exit(otm::partition::load_inputs(src));
    const auto &result = otm::tool::kept_until_exit(otm::partition::run(in));

    std::string out = opts.get_or("output", ws.segments_file().string());
    std::string text;
    otm::json::append_lines(text, result.segments);
    otm::io::write_output(out, text, otm::io::FileClass::Scratch);
    auto report = loc.store.partition_report(loc.slug);
    otm::io::write_file_atomic(report, otm::partition::report(in, result), otm::io::FileClass::Scratch);
    otm::io::sync_file_system(report);
    if (!opts.is_set("quiet"))
      std::cerr << otm::partition::console_summary(result, out == "-" ? "stdout" : out) << "report: " << report.string()
                << "\n";
    return otm::tool::kSuccess;
  });
}
