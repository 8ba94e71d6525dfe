// Reading what partition (and recon) consume: the ladder's annotated rows,
// meta.json, profiles.jsonl, the live and staging stores, and the trace's
// snapshot files. Errors name the file and the stage that writes it.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "partition/partition.hpp"
#include "json/value.hpp"

namespace otm::partition {

struct Sources {
  std::string ladder;                            // work/ladder.jsonl, or "-" for stdin
  std::filesystem::path meta, profiles;          // work/meta.json, work/profiles.jsonl
  std::optional<std::filesystem::path> live;     // live store root (holds records/)
  std::optional<std::filesystem::path> staging;  // staging store root
  std::optional<std::filesystem::path> trace;    // trace working tree (snapshot existence)
  std::optional<std::filesystem::path> previous; // the previous run's work/segments.jsonl, if any
  std::size_t prose_min_chars = 80;
};

// The ladder rows; every row must be an object with a string `version` and
// a `selection` (otherwise the file is not otm-ladder output).
std::vector<json::Value> read_ladder_rows(const std::string &path_or_dash);
// The `meta` object of meta.json (a UsageError naming the file when absent).
json::Value read_meta(const std::filesystem::path &meta_file);

// Whether a trace-relative path exists at the trace's HEAD commit or in its
// working tree; always false without a trace.
std::function<bool(const std::string &)> snapshot_probe(const std::optional<std::filesystem::path> &trace);

Inputs load_inputs(const Sources &src);

// What load_inputs adds to rows, meta and profiles already in hand: the
// known ids of the live and staging stores and the previous run, the live
// coverage, the snapshot probe and the prose minimum (src.ladder, .meta and
// .profiles are not read). For callers that rebuilt the rows in memory.
void add_store_inputs(Inputs &in, const Sources &src);

} // namespace otm::partition
