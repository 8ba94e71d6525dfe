#include "config/settings.hpp"

#include <cstdlib>

#include "cmdline/options.hpp"

namespace otm::config {

const std::vector<SettingInfo> &all_settings() {
  static const std::vector<SettingInfo> table = {
      {Setting::Trace, "RTM_TRACE", "trace", "DIR", "trace repository (env RTM_TRACE)"},
      {Setting::TraceName, "RTM_TRACE_NAME", "trace-name", "NAME",
       "registry key: locates the trace when --trace is unset, and supplies hardware defaults (env RTM_TRACE_NAME)"},
      {Setting::TraceRoot, "RTM_TRACE_ROOT", "trace-root", "DIR",
       "base a registry entry's path is resolved against (env RTM_TRACE_ROOT, default .)"},
      {Setting::TraceLabel, "RTM_TRACE_LABEL", "trace-label", "LABEL",
       "label written as evidence.raw.source_repo (env RTM_TRACE_LABEL, default the trace's directory name)"},
      {Setting::Workspace, "RTM_WORKSPACE", "workspace", "DIR",
       "scratch workspace (env RTM_WORKSPACE, default /tmp/opt-trace-mining/<slug>)"},
      {Setting::Store, "RTM_STORE", "store", "DIR", "staging store (env RTM_STORE, default ./kernel_wiki/staging)"},
      {Setting::Live, "RTM_LIVE", "live", "DIR", "live store, the directory holding records/ (env RTM_LIVE)"},
      {Setting::Vendor, "RTM_VENDOR", "vendor", "VENDOR", "vendor when the trace names no hardware (env RTM_VENDOR)"},
      {Setting::Arch, "RTM_ARCH", "arch", "ARCH", "architecture when the trace names no hardware (env RTM_ARCH)"},
      {Setting::Product, "RTM_PRODUCT", "product", "PRODUCT",
       "product when the trace names no hardware (env RTM_PRODUCT)"},
      {Setting::Dsl, "RTM_DSL", "dsl", "DSL", "default DSL (env RTM_DSL)"},
      {Setting::Harness, "RTM_HARNESS", "harness", "TEXT", "harness description for packets (env RTM_HARNESS)"},
      {Setting::NonTargetKernels, "RTM_NON_TARGET_KERNELS", "non-target-kernels", "K1,K2",
       "kernel names a capture must not be about (env RTM_NON_TARGET_KERNELS; default from the configuration)"},
      {Setting::Denylist, "ATREX_WIKI_DENYLIST", "denylist", "FILE",
       "file of private substrings to scrub and reject (env ATREX_WIKI_DENYLIST)"},
      {Setting::ConfigFile, "OTM_CONFIG", "config", "FILE",
       "configuration override file (env OTM_CONFIG; see docs/configuration.md)"},
      {Setting::LiveRemote, "OTM_LIVE_REMOTE", "remote", "NAME",
       "git-backed live store: push each admission to this remote of its repository, re-applying it when another "
       "writer pushed first (env OTM_LIVE_REMOTE; docs/scale-out.md)"},
      {Setting::LiveAuthor, "OTM_LIVE_AUTHOR", "author", "AUTHOR",
       "git-backed live store: author of its admission commits, \"Name <email>\" (env OTM_LIVE_AUTHOR; default the "
       "configuration's live_git.author)"},
      {Setting::LivePushAttempts, "OTM_LIVE_PUSH_ATTEMPTS", "push-attempts", "N",
       "git-backed live store: attempts to push one admission before giving up (env OTM_LIVE_PUSH_ATTEMPTS; default "
       "the configuration's live_git.push_attempts)"},
  };
  return table;
}

Settings Settings::from_environment() {
  Settings s;
  for (const auto &info : all_settings()) {
    const char *v = std::getenv(info.env);
    if (v && *v) s.values_[info.setting] = v;
  }
  return s;
}

void Settings::add_options(cli::Options &opts, const std::vector<Setting> &which) {
  for (const auto &info : all_settings())
    for (auto w : which)
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
