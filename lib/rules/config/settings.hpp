// Run settings: each an environment variable (OTM_<NAME>, and the seed's
// RTM_<NAME> / ATREX_WIKI_DENYLIST for compatibility) and a command-line flag
// that wins over the environment. One table (settings.cpp)
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
  Trace,            // OTM_/RTM_TRACE          --trace
  TraceName,        // OTM_/RTM_TRACE_NAME     --trace-name
  TraceRoot,        // OTM_/RTM_TRACE_ROOT     --trace-root
  TraceLabel,       // OTM_/RTM_TRACE_LABEL    --trace-label
  Workspace,        // OTM_/RTM_WORKSPACE      --workspace
  Store,            // OTM_/RTM_STORE          --store
  Live,             // OTM_/RTM_LIVE           --live
  Vendor,           // OTM_/RTM_VENDOR         --vendor
  Arch,             // OTM_/RTM_ARCH           --arch
  Product,          // OTM_/RTM_PRODUCT        --product
  Dsl,              // OTM_/RTM_DSL            --dsl
  Harness,          // OTM_/RTM_HARNESS        --harness
  NonTargetKernels, // OTM_/RTM_NON_TARGET_KERNELS --non-target-kernels
  Denylist,         // OTM_DENYLIST / ATREX_WIKI_DENYLIST --denylist
  ConfigFile,       // OTM_CONFIG         --config
  LiveRemote,       // OTM_LIVE_REMOTE    --remote         (git-backed live store)
  LiveAuthor,       // OTM_LIVE_AUTHOR    --author
  LivePushAttempts, // OTM_LIVE_PUSH_ATTEMPTS --push-attempts
  AllowGitDir,      // OTM_ALLOW_GIT_DIR  --allow-git-dir  (registered with Trace)
};

struct SettingInfo {
  Setting setting;
  const char *env;      // OTM_<NAME>: every setting has one
  const char *seed_env; // the seed's name (RTM_<NAME>, ATREX_WIKI_DENYLIST), read for compatibility; or null
  const char *flag;
  const char *meta;
  const char *help;
};

const std::vector<SettingInfo> &all_settings();
// The environment variables a setting is read from, in precedence order:
// OTM_<NAME>, then the seed's name when it had one (docs/configuration.md,
// "Environment variables"). The one place a setting's names are resolved.
std::vector<std::string> env_names(Setting setting);

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
