#pragma once

#include <string>

namespace otm::cli {

std::string project_version();
std::string git_describe();
// "otm-ingest (otm) 0.1.0 (git abc1234)"
std::string version_line(const std::string &tool);

} // namespace otm::cli
