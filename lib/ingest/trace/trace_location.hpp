// Which trace a run is about and where its outputs go (spec README §3-§4,
// trace-format.md §8). Every stage that reads a trace calls locate_trace(),
// so the resolution rules and refusals are spelled once.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "config/config.hpp"
#include "config/settings.hpp"
#include "workspace/layout.hpp"

namespace otm::trace {

struct TraceLocation {
  std::filesystem::path trace;                   // absolute trace directory
  std::string slug;                              // names the workspace and reports/<slug>/
  std::string label;                             // evidence.raw.source_repo; never a path
  workspace::Workspace workspace;                // absolute
  workspace::StagingStore store;                 // absolute
  std::optional<config::RegistryEntry> registry; // the RTM_TRACE_NAME entry, if any
  config::Settings settings;                     // the settings it was resolved from
};

// trace-format.md §8: kernel_opt_<n>_<rest> → <n>-<rest with '-'>;
// otherwise non-[\w.-] runs → '-', trimmed of '-', '_', '.', '_' → '-'.
// Always ASCII, never empty and unique by construction (docs/differences.md):
// characters outside [A-Za-z0-9._-] become '-', and a name that is not the
// one its slug spells back to (kernel_opt_<n>_<words_with_underscores>, or
// the slug with '-' as '_') gets '_' and the first 8 hex digits of its
// SHA-256 ("trace_<hash>" when nothing is left), so names that would
// collapse (`a_b`, `a-b`, `a b`; `___` and `...`; `ñandú` and `ñandu`) stay
// apart, and no plain slug (never holding '_') meets a hashed one.
std::string trace_slug(std::string_view base_name);

// The slug of the trace the settings name (--trace / RTM_TRACE: its
// directory's name, the trace not opened), for a tool that writes
// reports/<slug>/ without locating the trace; nullopt when none is set.
std::optional<std::string> configured_trace_slug(const config::Settings &settings);

// evidence.raw.source_repo of a trace directory: --trace-label /
// RTM_TRACE_LABEL, else the directory's base name, taken from its absolute,
// normal path (so `--trace .` and `--trace dir/` name the directory) and
// made valid UTF-8; "" when no label is set and `trace_dir` is empty (no
// trace). The one derivation: locate_trace, the gates' context and
// the distiller's gates all call it.
std::string trace_label(const config::Settings &settings, const std::filesystem::path &trace_dir);

// Resolves RTM_TRACE (~ expanded), else RTM_TRACE_ROOT/<registry path> for
// RTM_TRACE_NAME. Throws an Error (Usage or UnreadableInput) with a one-line reason
// when no trace is configured, the registry key is unknown (listing the
// known keys), the path is not a directory, has no .git, or has no commits.
TraceLocation locate_trace(const config::Settings &settings, const config::Config &config);

} // namespace otm::trace
