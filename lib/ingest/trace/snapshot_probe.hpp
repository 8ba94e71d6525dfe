// Whether a file exists in a trace's snapshot: at the HEAD commit, or in the
// working tree (under the trace reading policy) when HEAD does not track it.
// Partition and recon both ask.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "config/config.hpp"
#include "git/repository.hpp"
#include "trace/trace_files.hpp"

namespace otm::trace {

// Whether `path` (relative to the trace) exists at HEAD or as a regular file
// beneath the trace.
bool trace_file_exists(const git::Repository &repo, const TraceFiles &files, const std::string &path);

// The same question as a function of the path, the repository opened once;
// always false without a trace.
std::function<bool(const std::string &)> snapshot_probe(const std::optional<std::filesystem::path> &trace,
                                                        const config::Limits &limits);

} // namespace otm::trace
