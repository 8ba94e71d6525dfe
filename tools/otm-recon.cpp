// otm-recon: work files and the live store -> recon.md and ladder.svg, counts only.
// reports/<slug>/recon.md and the ladder picture (spec scoring.md §5).
#include <algorithm>
#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "recon/inputs.hpp"
#include "recon/recon.hpp"
#include "report/ladder_svg.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "trace/trace_location.hpp"

namespace {

const char *kHelp = R"(usage: otm-recon [options]

Reads otm-ladder's output (work/ladder.jsonl, or --ladder FILE, '-' for
stdin), work/meta.json and work/profiles.jsonl of the workspace, and the
live store (--live DIR / RTM_LIVE, the directory holding records/) when one
is configured; without one the report says so and still describes the
trace.

Writes <store>/reports/<slug>/recon.md (or --output FILE, '-' for stdout):
what the trace is, how many versions have citable numbers, how many
captures are usable, the dead-end grammar counts, and what the live store
already holds for this operator (by source trace) and its family; and
<store>/reports/<slug>/ladder.svg (or --picture FILE; --picture '' for
none), the ladder as a picture: geomean latency per version on a log
scale, the best-so-far ratchet, milestones, megas, the final, dead-ends
and every rejected version marked by reason, linked from recon.md. A
summary goes to stderr.

Refuses to decide anything: it only counts.

Exit status: 0 written; 2 cannot run (no trace, missing or malformed work
files, --live not a store).
)";

} // namespace

int otm_recon_main(int argc, char **argv) {
  return otm::tool::run_tool("otm-recon", [&] {
    using otm::config::Setting;
    otm::cli::Options opts("otm-recon", kHelp);
    otm::config::Settings::add_options(opts,
                                       {Setting::Trace, Setting::TraceName, Setting::TraceRoot, Setting::TraceLabel,
                                        Setting::Workspace, Setting::Store, Setting::Live, Setting::ConfigFile});
    opts.value("ladder", "FILE", "otm-ladder output; '-' for stdin (default <workspace>/work/ladder.jsonl)");
    opts.value("output", "FILE", "where the report goes; '-' for stdout (default <store>/reports/<slug>/recon.md)");
    opts.short_alias('o', "output");
    opts.value("picture", "FILE",
               "where the ladder picture goes; '' for none (default <store>/reports/<slug>/ladder.svg)");
    opts.flag("quiet", "do not print the summary");
    if (!opts.parse(argc, argv)) return otm::tool::kSuccess;
    otm::tool::refuse_positionals(opts);

    auto [settings, config, loc] = otm::tool::trace_tool_setup(opts);
    const auto &ws = loc.workspace;

    otm::recon::Sources src;
    src.ladder = opts.get_or("ladder", ws.ladder_file().string());
    src.meta = ws.meta_file();
    src.profiles = ws.profiles_file();
    src.live = otm::workspace::live_root(settings);
    src.trace = loc.trace;
    auto in = otm::recon::load_inputs(src, config);
    std::string out = opts.get_or("output", loc.store.recon_report(loc.slug).string());
    std::string picture = opts.get_or("picture", loc.store.ladder_picture(loc.slug).string());
    if (!picture.empty()) {
      auto meta = in.meta_file.get("meta");
      otm::io::write_file_atomic(picture,
                                 otm::report::ladder_svg({meta.string_or("operator_name"), in.rows, config.ladder()}),
                                 otm::io::FileClass::Scratch);
      // Beside the report, a relative link; elsewhere the path as given.
      bool beside =
          out != "-" && std::filesystem::path(out).parent_path() == std::filesystem::path(picture).parent_path();
      in.picture_link = beside ? std::filesystem::path(picture).filename().string() : picture;
    }
    std::string md = otm::recon::report(in);
    otm::io::write_output(out, md, otm::io::FileClass::Scratch);
    if (out != "-")
      otm::io::sync_file_system(out);
    else if (!picture.empty())
      otm::io::sync_file_system(picture);
    if (!opts.is_set("quiet"))
      std::cerr << otm::recon::console_summary(in, out == "-" ? "stdout" : out, std::count(md.begin(), md.end(), '\n'));
    return otm::tool::kSuccess;
  });
}
