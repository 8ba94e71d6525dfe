// otm-stamp: content stamps for Makefile.pipeline (lib/stages/pipeline/stamps.hpp).
#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "pipeline/stamps.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "trace/git_dir_policy.hpp"
#include "trace/trace_location.hpp"

namespace {
const char *kHelp = R"(usage: otm-stamp trace TRACE FILE
       otm-stamp config FILE SECTION...
       otm-stamp slug TRACE FILE

Writes a stamp file for make, and rewrites it only when its content changes,
so its modification time moves exactly when what it stands for does.

  trace    the trace's HEAD commit and the path, size and content hash of
           every working-tree file outside .git (step records, captures,
           snapshots are often untracked)
  config   the named sections of the effective configuration (built-in
           data/otm-config.json merged with --config / OTM_CONFIG), e.g.
           'ladder', 'target_table', 'non_target_kernels', 'traces'; the
           section 'settings' is the effective RTM_* settings
  slug     the trace's slug (names the reports/<slug>/ directory)

Reads the trace (never writes it) and the configuration. Writes FILE only.
Refuses a trace whose .git leads out of it (--allow-git-dir DIR /
OTM_ALLOW_GIT_DIR allows one git directory by name; docs/security.md).
Decides nothing about the pipeline: make compares the stamps' dates.
Prints 'changed' or 'unchanged' on stdout.

Exit status: 0 success; 2 bad usage, unreadable trace or configuration.
)";
} // namespace

int otm_stamp_main(int argc, char **argv) {
  return otm::tool::run_tool("otm-stamp", [&] {
    using otm::config::Setting;
    otm::cli::Options opts("otm-stamp", kHelp);
    otm::config::Settings::add_options(opts, {Setting::ConfigFile, Setting::AllowGitDir});
    if (!opts.parse(argc, argv)) return otm::tool::kSuccess;
    const auto &args = opts.positionals();
    if (args.empty()) throw otm::Error(otm::ErrorKind::Usage, "missing mode 'trace' or 'config' (see --help)");
    std::string content;
    std::string file;
    if (args[0] == "trace") {
      if (args.size() != 3) throw otm::Error(otm::ErrorKind::Usage, "usage: otm-stamp trace TRACE FILE");
      // The trace reading policy's .git rule before its HEAD is read.
      otm::trace::check_git_dir(otm::io::expand_user(args[1]), otm::tool::settings_from(opts));
      content = otm::pipeline::trace_state(otm::io::expand_user(args[1]));
      file = args[2];
    } else if (args[0] == "config") {
      if (args.size() < 3) throw otm::Error(otm::ErrorKind::Usage, "usage: otm-stamp config FILE SECTION...");
      auto [settings, config] = otm::tool::tool_setup(opts);
      content = otm::pipeline::config_state(config, settings, {args.begin() + 2, args.end()});
      file = args[1];
    } else if (args[0] == "slug") {
      if (args.size() != 3) throw otm::Error(otm::ErrorKind::Usage, "usage: otm-stamp slug TRACE FILE");
      auto trace = std::filesystem::absolute(otm::io::expand_user(args[1])).lexically_normal();
      if (!trace.has_filename()) trace = trace.parent_path();
      content = otm::trace::trace_slug(trace.filename().string()) + "\n";
      file = args[2];
    } else {
      throw otm::Error(otm::ErrorKind::Usage, "unknown mode '" + args[0] + "' (expected 'trace', 'config' or 'slug')");
    }
    std::cout << (otm::pipeline::write_if_changed(file, content) ? "changed" : "unchanged") << '\n';
    return otm::tool::kSuccess;
  });
}
