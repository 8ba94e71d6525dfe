// otm-score: the store's worth model over the staging store.
#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "otm_tools.hpp"
#include "scoring/score_store.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "workspace/layout.hpp"

using namespace otm;

static const char *kHelp = R"(usage: otm-score [--store DIR] [--dry-run] [--allow-empty]

Ranks every staged record with the live store's own worth model (prior,
feedback band, confidence, usage bonus, tiers; no recency decay, since no
current time is passed) and writes the staging index.

Reads:  <store>/records/**/*.json (every file except index.json).
Writes: worth.rank (score, tier, formula, builder_version) of each record
        whose score or tier changed, and <store>/records/index.json; with
        --dry-run nothing is written.
Refuses to decide: a record's worth from anything but its worth.track
        (a distiller never scores its own record).

With --allow-empty, a staging store without records (every packet refused,
e.g. already live) is a result: an empty index is written and the exit is 0
(Makefile.pipeline passes it; by default, none is exit 1, "distil first").

Exit: 0 success; 1 no staged records (without --allow-empty); 2 a record
file does not parse or another input problem (nothing written).
)";

int otm_score_main(int argc, char **argv) {
  return tool::run_tool("otm-score", [&] {
    cli::Options opts("otm-score", kHelp);
    opts.flag("dry-run", "compute and report, write nothing");
    opts.flag("allow-empty", "no staged records is a result (an empty index), not exit 1");
    config::Settings::add_options(opts, {config::Setting::Store, config::Setting::ConfigFile});
    if (!opts.parse(argc, argv)) return 0;
    tool::refuse_positionals(opts, " (see --help)");
    auto [settings, cfg] = tool::tool_setup(opts);
    scoring::ScoreOptions so;
    so.staging_root = workspace::staging_store(settings).root;
    so.dry_run = opts.is_set("dry-run");
    so.allow_empty = opts.is_set("allow-empty");
    so.builder_version = cfg.builder_version();
    auto sum = scoring::score_staging(so);
    std::cout << sum.console << std::flush;
    return 0;
  });
}
