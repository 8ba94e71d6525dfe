// Whether a file exists in a trace's snapshot: at the HEAD commit, or in the
// working tree when HEAD does not track it. Partition and recon both ask.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "git/repository.hpp"

namespace otm::git {

// Whether `path` (relative to the trace) exists at HEAD or in the working tree.
bool trace_file_exists(const Repository &repo, const std::filesystem::path &trace, const std::string &path);

// The same question as a function of the path, the repository opened once;
// always false without a trace.
std::function<bool(const std::string &)> snapshot_probe(const std::optional<std::filesystem::path> &trace);

} // namespace otm::git
