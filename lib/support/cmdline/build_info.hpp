#pragma once

#include <string>

namespace otm::cli {

std::string project_version();
std::string git_describe();
// "otm-ingest (otm) 0.1.0 (git abc1234)"
std::string version_line(const std::string &tool);
// The running build, for a stage that skips work its last run already did:
// the version line plus the executable's size and modification time (a
// rebuild at the same version is another build).
std::string build_identity(const std::string &tool);

} // namespace otm::cli
