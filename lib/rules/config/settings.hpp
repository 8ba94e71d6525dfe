// Run settings: the spec's environment variables, each also settable by a
// command-line flag that wins over the environment. One table (settings.cpp)
// lists them all, so --help, the environment and docs agree.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace otm::cli {
class Options;
}

namespace otm::config {

enum class Setting {
  Trace,            // RTM_TRACE          --trace
  TraceName,        // RTM_TRACE_NAME     --trace-name
  TraceRoot,        // RTM_TRACE_ROOT     --trace-root
  TraceLabel,       // RTM_TRACE_LABEL    --trace-label
  Workspace,        // RTM_WORKSPACE      --workspace
  Store,            // RTM_STORE          --store
  Live,             // RTM_LIVE           --live
  Vendor,           // RTM_VENDOR         --vendor
  Arch,             // RTM_ARCH           --arch
  Product,          // RTM_PRODUCT        --product
  Dsl,              // RTM_DSL            --dsl
  Harness,          // RTM_HARNESS        --harness
  NonTargetKernels, // RTM_NON_TARGET_KERNELS --non-target-kernels
  Denylist,         // ATREX_WIKI_DENYLIST --denylist
  ConfigFile,       // OTM_CONFIG         --config
  LiveRemote,       // OTM_LIVE_REMOTE    --remote         (git-backed live store)
  LiveAuthor,       // OTM_LIVE_AUTHOR    --author
  LivePushAttempts, // OTM_LIVE_PUSH_ATTEMPTS --push-attempts
  AllowGitDir,      // OTM_ALLOW_GIT_DIR  --allow-git-dir  (registered with Trace)
};

struct SettingInfo {
  Setting setting;
  const char *env;
  const char *flag;
  const char *meta;
  const char *help;
};

const std::vector<SettingInfo> &all_settings();

class Settings {
public:
  // Reads the environment; empty variables count as unset.
  static Settings from_environment();
  // Registers the flags for `which` on a tool's option parser; a tool that
  // takes --trace also takes --allow-git-dir (the trace reading policy's one
  // exception, trace::locate_trace).
  static void add_options(cli::Options &opts, const std::vector<Setting> &which);
  // Flags given on the command line override the environment.
  void apply(const cli::Options &opts);

  std::optional<std::string> get(Setting s) const;
  void set(Setting s, std::string value) { values_[s] = std::move(value); }
  void unset(Setting s) { values_.erase(s); }

private:
  std::map<Setting, std::string> values_;
};

} // namespace otm::config
