// The sidecar `<record file>.merged` that marks a staged record as admitted
// (written by the admission gate, admission/merged_marker.hpp; read by it
// and by the staging README): where it is and what it holds.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "json/value.hpp"

namespace otm::store {

std::filesystem::path merged_marker_path(const std::filesystem::path &record_file);

// The ledger, or nullopt when the record has never been merged.
std::optional<json::Value> read_merged_marker(const std::filesystem::path &record_file);

// One entry of the ledger's `merges`: what the admission did (insert,
// confirm, ...), the live record it did it against and when. A field that
// is absent, null or of another type reads as absent (the reports show
// what they can).
struct Merge {
  std::optional<std::string> action, target, merged_at;
};

// The ledger's last merge; nullopt when it lists none (or is no ledger).
std::optional<Merge> last_merge(const json::Value &ledger);

} // namespace otm::store
