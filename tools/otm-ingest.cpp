// otm-ingest: a trace -> work/versions.jsonl, work/profiles.jsonl, work/meta.json.
// Reads one optimisation trace (spec trace-format.md §9).
#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "otm_tools.hpp"
#include "tool/exit_codes.hpp"
#include "tool/kept_until_exit.hpp"
#include "tool/large_heap_pages.hpp"
#include "tool/tool_setup.hpp"
#include "trace/ingest.hpp"
#include "trace/trace_location.hpp"

namespace {

const char *kHelp = R"(usage: otm-ingest [options]

Reads one optimisation trace (a git repository of kernel versions): the
commit history (subjects 'v<N>: ...' carry version and verdict), kernel.py
at each version's commit and in the working tree, memory/*.json step
records, profiles/<dir>/ captures, definition.json, solution.json and
workload.jsonl. It never writes to the trace.

Writes, atomically, into the workspace (--workspace, default
/tmp/opt-trace-mining/<slug>): work/versions.jsonl (or --output),
work/profiles.jsonl and work/meta.json; creates work/ and packets/. A
summary goes to stderr.

Refuses to decide the hardware: when neither solution.json / definition.json
nor the configuration (--arch, --vendor, --product, or the registry entry)
names a known target, it exits 2 instead of guessing. Malformed step records
are reported in meta.json memory_variants, never fatal.

Exit status: 0 written; 2 cannot run (no trace, not a directory, no .git, no
commits, unknown registry key, unknown or invalid hardware or DSL settings,
unreadable configuration, write failure).
)";

} // namespace

int otm_ingest_main(int argc, char **argv) {
  otm::tool::use_large_heap_pages(true);
  return otm::tool::run_tool("otm-ingest", [&] {
    using otm::config::Setting;
    otm::cli::Options opts("otm-ingest", kHelp);
    otm::config::Settings::add_options(opts, {Setting::Trace, Setting::TraceName, Setting::TraceRoot,
                                              Setting::TraceLabel, Setting::Workspace, Setting::Vendor, Setting::Arch,
                                              Setting::Product, Setting::Dsl, Setting::Harness,
                                              Setting::NonTargetKernels, Setting::ConfigFile});
    opts.value("output", "FILE", "where versions.jsonl goes; '-' for stdout (default <workspace>/work/versions.jsonl)");
    opts.short_alias('o', "output");
    opts.flag("quiet", "do not print the summary");
    if (!opts.parse(argc, argv)) return otm::tool::kSuccess;
    otm::tool::refuse_positionals(opts, " (the trace is --trace DIR)");

    auto [settings, config, loc] = otm::tool::trace_tool_setup(opts);
    // Held until exit: freeing every row one by one just before the process
    // ends would cost more than writing them.
    const auto &result = otm::tool::kept_until_exit(otm::trace::ingest(loc, config));
    otm::trace::write_ingest(loc, result, opts.get_or("output", ""));
    if (!opts.is_set("quiet")) {
      std::string out = opts.get_or("output", "");
      std::string versions = out.empty() ? loc.workspace.versions_file().string() : out == "-" ? "stdout" : out;
      std::cerr << otm::trace::summary_text(loc, result) << "wrote:      versions to " << versions << "; "
                << loc.workspace.profiles_file().string() << "; " << loc.workspace.meta_file().string() << "\n";
    }
    return otm::tool::kSuccess;
  });
}
