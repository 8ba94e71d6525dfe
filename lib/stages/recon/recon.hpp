// Recon (spec scoring.md §5): what an ingested trace holds and what the live
// store already has for its operator, as counts. It decides nothing.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "store/coverage.hpp"
#include "workspace/trace_meta.hpp"
#include "json/value.hpp"

namespace otm::recon {

struct Inputs {
  std::vector<json::Value> rows;     // work/ladder.jsonl: version rows with the ladder's selection
  std::vector<json::Value> profiles; // work/profiles.jsonl
  json::Value meta_file;             // work/meta.json (meta, memory_variants, non_version_commits)
  workspace::TraceMeta meta;         // its `meta` object, typed
  std::optional<std::string> live;   // the live store's location as given; nullopt: none configured
  std::vector<json::Value> live_entries;
  store::Coverage coverage;
  std::vector<std::string> non_target_kernels;
  config::LadderThresholds thresholds;
  // Whether versions/kernel_<ver>.py exists in the trace (null: unknown).
  std::function<bool(const std::string &path)> snapshot_exists;
  // Where the ladder picture (report/ladder_svg.hpp) is, as the report
  // should link it; empty: none was written.
  std::string picture_link;
};

std::string report(const Inputs &in);
std::string console_summary(const Inputs &in, const std::string &report_path, std::size_t report_lines);

} // namespace otm::recon
