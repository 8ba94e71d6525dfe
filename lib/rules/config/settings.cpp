#include "config/settings.hpp"

#include <algorithm>
#include <cstdlib>

#include "cmdline/options.hpp"

namespace otm::config {

const std::vector<SettingInfo> &all_settings() {
  static const std::vector<SettingInfo> table = {
      {Setting::Trace, "OTM_TRACE", "RTM_TRACE", "trace", "DIR", "trace repository (env OTM_TRACE or RTM_TRACE)"},
      {Setting::TraceName, "OTM_TRACE_NAME", "RTM_TRACE_NAME", "trace-name", "NAME",
       "registry key: locates the trace when --trace is unset, and supplies hardware defaults (env OTM_TRACE_NAME or "
       "RTM_TRACE_NAME)"},
      {Setting::TraceRoot, "OTM_TRACE_ROOT", "RTM_TRACE_ROOT", "trace-root", "DIR",
       "base a registry entry's path is resolved against (env OTM_TRACE_ROOT or RTM_TRACE_ROOT, default .)"},
      {Setting::TraceLabel, "OTM_TRACE_LABEL", "RTM_TRACE_LABEL", "trace-label", "LABEL",
       "label written as evidence.raw.source_repo (env OTM_TRACE_LABEL or RTM_TRACE_LABEL, default the trace's "
       "directory name)"},
      {Setting::Workspace, "OTM_WORKSPACE", "RTM_WORKSPACE", "workspace", "DIR",
       "scratch workspace (env OTM_WORKSPACE or RTM_WORKSPACE, default /tmp/opt-trace-mining/<slug>)"},
      {Setting::Store, "OTM_STORE", "RTM_STORE", "store", "DIR",
       "staging store (env OTM_STORE or RTM_STORE, default ./kernel_wiki/staging)"},
      {Setting::Live, "OTM_LIVE", "RTM_LIVE", "live", "DIR",
       "live store, the directory holding records/ (env OTM_LIVE or RTM_LIVE)"},
      {Setting::Vendor, "OTM_VENDOR", "RTM_VENDOR", "vendor", "VENDOR",
       "vendor when the trace names no hardware (env OTM_VENDOR or RTM_VENDOR)"},
      {Setting::Arch, "OTM_ARCH", "RTM_ARCH", "arch", "ARCH",
       "architecture when the trace names no hardware (env OTM_ARCH or RTM_ARCH)"},
      {Setting::Product, "OTM_PRODUCT", "RTM_PRODUCT", "product", "PRODUCT",
       "product when the trace names no hardware (env OTM_PRODUCT or RTM_PRODUCT)"},
      {Setting::Dsl, "OTM_DSL", "RTM_DSL", "dsl", "DSL", "default DSL (env OTM_DSL or RTM_DSL)"},
      {Setting::Harness, "OTM_HARNESS", "RTM_HARNESS", "harness", "TEXT",
       "harness description for packets (env OTM_HARNESS or RTM_HARNESS)"},
      {Setting::NonTargetKernels, "OTM_NON_TARGET_KERNELS", "RTM_NON_TARGET_KERNELS", "non-target-kernels", "K1,K2",
       "kernel names a capture must not be about (env OTM_NON_TARGET_KERNELS or RTM_NON_TARGET_KERNELS; default from "
       "the configuration)"},
      {Setting::Denylist, "OTM_DENYLIST", "ATREX_WIKI_DENYLIST", "denylist", "FILE",
       "file of private substrings to scrub and reject (env OTM_DENYLIST or ATREX_WIKI_DENYLIST)"},
      {Setting::ConfigFile, "OTM_CONFIG", nullptr, "config", "FILE",
       "configuration override file (env OTM_CONFIG; see docs/configuration.md)"},
      {Setting::LiveRemote, "OTM_LIVE_REMOTE", nullptr, "remote", "NAME",
       "git-backed live store: push each admission to this remote of its repository, re-applying it when another "
       "writer pushed first (env OTM_LIVE_REMOTE; docs/scale-out.md)"},
      {Setting::LiveAuthor, "OTM_LIVE_AUTHOR", nullptr, "author", "AUTHOR",
       "git-backed live store: author of its admission commits, \"Name <email>\" (env OTM_LIVE_AUTHOR; default the "
       "configuration's live_git.author)"},
      {Setting::LivePushAttempts, "OTM_LIVE_PUSH_ATTEMPTS", nullptr, "push-attempts", "N",
       "git-backed live store: attempts to push one admission before giving up (env OTM_LIVE_PUSH_ATTEMPTS; default "
       "the configuration's live_git.push_attempts)"},
      {Setting::AllowGitDir, "OTM_ALLOW_GIT_DIR", nullptr, "allow-git-dir", "DIR",
       "let the trace's .git (a symbolic link or a gitdir: file) lead out of the trace to this git directory, and "
       "to no other (env OTM_ALLOW_GIT_DIR; docs/security.md)"},
  };
  return table;
}

std::vector<std::string> env_names(Setting setting) {
  for (const auto &info : all_settings())
    if (info.setting == setting) {
      std::vector<std::string> names{info.env};
      if (info.seed_env) names.emplace_back(info.seed_env);
      return names;
    }
  return {};
}

Settings Settings::from_environment() {
  Settings s;
  for (const auto &info : all_settings())
    for (const auto &name : env_names(info.setting)) {
      // The first set, non-empty name wins: OTM_<NAME>, then the seed's.
      const char *v = std::getenv(name.c_str());
      if (v && *v) {
        s.values_[info.setting] = v;
        break;
      }
    }
  return s;
}

void Settings::add_options(cli::Options &opts, const std::vector<Setting> &which) {
  auto wanted = which;
  bool trace = std::find(which.begin(), which.end(), Setting::Trace) != which.end();
  if (trace && std::find(which.begin(), which.end(), Setting::AllowGitDir) == which.end())
    wanted.push_back(Setting::AllowGitDir);
  for (const auto &info : all_settings())
    for (auto w : wanted)
      if (w == info.setting) opts.value(info.flag, info.meta, info.help);
}

void Settings::apply(const cli::Options &opts) {
  for (const auto &info : all_settings())
    if (auto v = opts.get(info.flag); v && !v->empty()) values_[info.setting] = *v;
}

std::optional<std::string> Settings::get(Setting s) const {
  auto it = values_.find(s);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

} // namespace otm::config
