// otm-readme: the reviewer's summary of the staging store (its README.md).
#include <iostream>

#include "cmdline/options.hpp"
#include "config/settings.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "report/readme.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "workspace/layout.hpp"

using namespace otm;

static const char *kHelp =
    R"(usage: otm-readme [--store DIR] [--workspace DIR] [--gate-report FILE] [--config FILE] [--output FILE|-]
                  [--timestamp TEXT]

Writes the reviewer's summary of the staging store.

Reads:  <store>/records/**/*.json, their sidecar .merged ledgers,
        <store>/reports/*/refusals.jsonl, and when present
        <workspace>/work/meta.json, versions.jsonl, segments.jsonl,
        ladder.jsonl and <workspace>/packets/ (what the quality signals
        read the records against); --gate-report: the saved console output
        of otm-validate; the configuration (--config / OTM_CONFIG: the
        lever vocabulary, causal markers and boilerplate the signals use).
Writes: <store>/README.md (or --output; - for stdout), with a "Quality
        signals" table: per record, most-warned first, whether its claim is
        visible in code, how many snippet lines run, its span, boilerplate,
        duplicates, and whether its mechanism adds a cause. The output is
        deterministic; --timestamp adds a generation time you supply.
Refuses to decide: that anything is in the live store, or that the gates
        passed when no gate report says so. The quality signals are facts
        that say what to read first; they refuse and admit nothing.

Exit: 0 written; 1 neither staged records nor work files; 2 bad arguments
or an unwritable output.
)";

int otm_readme_main(int argc, char **argv) {
  return tool::run_tool("otm-readme", [&] {
    cli::Options opts("otm-readme", kHelp);
    opts.value("gate-report", "FILE", "saved otm-validate output to report the gate status from");
    opts.value("output", "FILE", "where to write (default <store>/README.md; - for stdout)");
    opts.value("timestamp", "TEXT", "generation time to print (none by default, for reproducible output)");
    config::Settings::add_options(opts,
                                  {config::Setting::Store, config::Setting::Workspace, config::Setting::ConfigFile});
    if (!opts.parse(argc, argv)) return 0;
    tool::refuse_positionals(opts, " (see --help)");
    const auto [settings, config] = tool::tool_setup(opts);
    auto store = workspace::staging_store(settings);
    report::ReadmeInputs in;
    in.staging_root = store.root;
    if (auto ws = settings.get(config::Setting::Workspace)) in.workspace_root = *ws;
    if (auto g = opts.get("gate-report")) in.gate_report = *g;
    in.generated_at = opts.get("timestamp");
    in.quality = report::QualityRules::from_config(config);
    auto readme = report::make_readme(in);
    for (const auto &w : readme.warnings) std::cerr << "otm-readme: warning: " << w << '\n';
    std::string dest = opts.get_or("output", store.readme_file().string());
    io::write_output(dest, readme.text, io::FileClass::Scratch);
    if (dest != "-") io::sync_file_system(dest);
    if (dest != "-") std::cout << "wrote " << dest << '\n';
    return 0;
  });
}
