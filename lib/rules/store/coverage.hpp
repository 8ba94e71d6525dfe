// What a store already holds for an operator (spec partition.md §8, scoring.md
// §5 item 7): the live entries of the operator grouped by the trace they came
// from. Shared by recon (reports it) and partition (decides
// worth.gain.comparable from it).
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "json/value.hpp"

namespace otm::store {

struct CoveredRecord {
  std::string id, type, version; // version: evidence.raw.version, "" when absent
};

struct Coverage {
  // (source trace label or "(unrecorded)", its records), first appearance order.
  std::vector<std::pair<std::string, std::vector<CoveredRecord>>> by_source;
  std::size_t records() const;
  // Labels of every group other than `label` (an unrecorded group counts).
  std::vector<std::string> other_sources(const std::string &label) const;
  bool comparable(const std::string &label) const { return other_sources(label).empty(); }
};

inline constexpr const char *kUnrecordedSource = "(unrecorded)";

// Entries whose retrieval.scope.operator_family equals `operator_slug`; each
// record file is opened (entry path relative to `root`) for its
// evidence.raw.source_repo and version. An unreadable file counts as
// unrecorded.
Coverage existing_coverage(const std::filesystem::path &root, const std::vector<json::Value> &entries,
                           const std::string &operator_slug);

// The record an entry points at (path relative to `root`), or null.
json::Value open_entry(const std::filesystem::path &root, const json::Value &entry);

} // namespace otm::store
