// otm-review: the staging store as one self-contained HTML page.
#include <iostream>

#include "cmdline/options.hpp"
#include "config/settings.hpp"
#include "gates/gate_cli.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "review/review_page.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "workspace/layout.hpp"

namespace {

const char *kHelp = R"(usage: otm-review [STORE] [--output FILE|-] [--workspace DIR] [--trace DIR] [--live DIR]

Reads the staging store (STORE, or --store / RTM_STORE): its records, the
refusal ledgers reports/*/refusals.jsonl and the ladder pictures
reports/*/ladder.svg (otm-recon); with --workspace the packets (the code
each record quotes from) and work/profiles.jsonl; with --trace and --live
what the trace gates need. It runs all seventeen gates itself, as
otm-validate does; a gate lacking its input is shown as not run.

Writes one static HTML page, <store>/review.html (or --output FILE, '-' for
stdout): per record its fields, its verdict from every gate, its packet's
diff with the lines the record quotes highlighted, the refused packets with
their reasons, and the ladder picture. Self-contained: inline CSS and SVG,
no script, nothing fetched from a network; open it in any browser.

Refuses to decide anything: it shows what the gates and the ledgers say.

Exit status: 0 written; 2 cannot run (no store, unreadable input,
unwritable output).
)";

} // namespace

int otm_review_main(int argc, char **argv) {
  return otm::tool::run_tool("otm-review", [&] {
    otm::cli::Options opts("otm-review", kHelp);
    otm::gates::add_context_options(opts);
    opts.value("output", "FILE", "where the page goes; '-' for stdout (default <store>/review.html)");
    opts.short_alias('o', "output");
    opts.flag("quiet", "do not print where the page was written");
    if (!opts.parse(argc, argv)) return otm::tool::kSuccess;
    if (opts.positionals().size() > 1) throw otm::Error(otm::ErrorKind::Usage, "one store directory at most");
    const auto [settings, config] = otm::tool::tool_setup(opts);
    auto ctx = otm::gates::build_context(opts, settings, config, opts.positionals());
    if (!ctx.store_root)
      throw otm::Error(otm::ErrorKind::Usage, "otm-review takes a store directory (the one holding records/)");
    otm::review::PageInputs in;
    in.context = &ctx;
    in.gates = otm::review::run_all_gates(ctx);
    std::string out = opts.get_or("output", otm::workspace::StagingStore{*ctx.store_root}.review_page().string());
    otm::io::write_output(out, otm::review::review_page(in));
    if (!opts.is_set("quiet") && out != "-") std::cerr << "otm-review: wrote " << out << "\n";
    return otm::tool::kSuccess;
  });
}
