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

Reads the staging store (STORE, or --store / RTM_STORE): its records and
the refusal ledgers reports/*/refusals.jsonl, beneath the store (a ledger
that is a link out of the store, or not a regular file, is named, never
read); with --workspace the packets (the code each record quotes from),
work/profiles.jsonl and work/ladder.jsonl with work/meta.json (the ladder
it draws); with --trace and --live what the trace gates need. It runs all
seventeen gates itself, as otm-validate does; a gate lacking its input is
shown as not run.

Writes one static HTML page, <store>/review.html (or --output FILE, '-' for
stdout): the records to read first (most quality-signal warnings first);
per record its fields, its verdict from every gate, its quality signals
(claim in code, snippet runs, span, boilerplate, duplicate, adds a cause:
facts from the record and its packet, docs/record-quality.md), its packet's
diff with the lines the record quotes highlighted; the refused packets with
their reasons, and the ladder picture, drawn from the workspace's work
files. Self-contained: inline CSS and SVG, a Content-Security-Policy that
forbids script, nothing fetched from a network; open it in any browser.

Refuses to decide anything: it shows what the gates and the ledgers say,
and the quality signals only show facts (they refuse and admit nothing).
Refuses to embed what the store stages as markup: every text of the store
is escaped, and its own reports/*/ladder.svg are named, never inlined.

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
    in.limits = config.limits();
    in.quality = otm::report::QualityRules::from_config(config);
    if (ctx.workspace)
      in.ladder = otm::review::workspace_ladder(*ctx.workspace, config, &in.ladder_source);
    else
      in.ladder_source = "no workspace given (--workspace DIR / RTM_WORKSPACE holds work/ladder.jsonl)";
    std::string out = opts.get_or("output", otm::workspace::StagingStore{*ctx.store_root}.review_page().string());
    otm::io::write_output(out, otm::review::review_page(in));
    if (!opts.is_set("quiet") && out != "-") std::cerr << "otm-review: wrote " << out << "\n";
    return otm::tool::kSuccess;
  });
}
