// The packets a distillation run covers: files as given, and for a
// directory every *.json in it (sorted by name, so runs are reproducible).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace otm::distill {

std::vector<std::filesystem::path> expand_packet_args(const std::vector<std::string> &args);

} // namespace otm::distill
