// Reading what partition consumes: the ladder's annotated rows, meta.json,
// profiles.jsonl, the live and staging stores, and the trace's snapshot
// files (the readers it shares: workspace/work_files.hpp,
// trace/snapshot_probe.hpp). Errors name the file and the stage that writes it.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
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
  config::Limits limits; // the trace reading policy's, and max_segments_per_version
  levers::LeverVocabulary levers = levers::LeverVocabulary::defaults(); // the `levers` section
};

Inputs load_inputs(const Sources &src);

// What load_inputs adds to rows, meta and profiles already in hand: the
// known ids of the live and staging stores and the previous run, the live
// coverage, the snapshot probe, the segment limit, the prose minimum and
// the lever vocabulary (src.ladder, .meta and .profiles are not read). For
// callers that rebuilt the rows in memory.
void add_store_inputs(Inputs &in, const Sources &src);

} // namespace otm::partition
