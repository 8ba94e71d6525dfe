// otm-score: the store's worth model over the staging store.
#include <iostream>

#include "cli/exit_codes.hpp"
#include "cli/options.hpp"
#include "cli/tool_setup.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "scoring/score_store.hpp"
#include "workspace/layout.hpp"

using namespace otm;

static const char *kHelp = R"(usage: otm-score [--store DIR] [--dry-run]

Ranks every staged record with the live store's own worth model (prior,
feedback band, confidence, usage bonus, tiers; no recency decay, since no
current time is passed) and writes the staging index.

Reads:  <store>/records/**/*.json (every file except index.json).
Writes: worth.rank (score, tier, formula, builder_version) of each record
        whose score or tier changed, and <store>/records/index.json; with
        --dry-run nothing is written.
Refuses to decide: a record's worth from anything but its worth.track
        (a distiller never scores its own record).

Exit: 0 success; 1 no staged records; 2 a record file does not parse or
another input problem (nothing written).
)";

int main(int argc, char **argv) {
  return cli::run_tool("otm-score", [&] {
    cli::Options opts("otm-score", kHelp);
    opts.flag("dry-run", "compute and report, write nothing");
    config::Settings::add_options(opts, {config::Setting::Store, config::Setting::ConfigFile});
    if (!opts.parse(argc, argv)) return 0;
    if (!opts.positionals().empty())
      throw Error(ErrorKind::Usage, "otm-score takes no positional arguments (see --help)");
    auto [settings, cfg] = cli::tool_setup(opts);
    scoring::ScoreOptions so;
    so.staging_root = workspace::staging_store(settings).root;
    so.dry_run = opts.is_set("dry-run");
    so.builder_version = cfg.builder_version();
    auto sum = scoring::score_staging(so);
    std::cout << sum.console << std::flush;
    return 0;
  });
}
