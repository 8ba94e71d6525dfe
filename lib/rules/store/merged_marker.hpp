// The sidecar `<record file>.merged` that marks a staged record as admitted
// (written by the admission gate, admission/merged_marker.hpp; read by it
// and by the staging README): where it is and what it holds.
#pragma once

#include <filesystem>
#include <optional>

#include "json/value.hpp"

namespace otm::store {

std::filesystem::path merged_marker_path(const std::filesystem::path &record_file);

// The ledger, or nullopt when the record has never been merged.
std::optional<json::Value> read_merged_marker(const std::filesystem::path &record_file);

} // namespace otm::store
