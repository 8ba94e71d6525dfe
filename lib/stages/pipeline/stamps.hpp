// Content stamps for Makefile.pipeline: make can only date files, so the
// things a stage depends on that are not files of their own (the trace, a
// directory git owns; one section of the configuration; the RTM_* settings)
// are rendered as text and written to a stamp file only when that text
// changes. A stamp's mtime therefore moves exactly when what it stands for
// does.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/settings.hpp"

namespace otm::pipeline {

// The trace's HEAD commit, plus path, size and content hash of every file of
// its working tree outside .git (step records, captures, snapshots and
// metadata are untracked or may be edited without a commit). Read with
// libgit2 and the file system; deterministic.
std::string trace_state(const std::filesystem::path &trace);

// Canonical text of the named configuration sections of `config` (merged
// defaults + override). The pseudo-section "settings" is the effective RTM_*
// settings, so a changed RTM_ARCH reruns the stages it affects.
std::string config_state(const config::Config &config, const config::Settings &settings,
                         const std::vector<std::string> &sections);

// Writes `content` to `path` (atomically) only when it differs from what is
// there; true when it wrote.
bool write_if_changed(const std::filesystem::path &path, const std::string &content);

} // namespace otm::pipeline
