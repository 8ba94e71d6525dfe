// Partition (spec partition.md): cuts an ingested, ladder-annotated trace
// into segments, one per record-to-be, and allocates their ids. Input rows
// are otm-ladder's output (work/ladder.jsonl: the version rows with
// `selection`, `reason`, `improve_pct`, `best_before_us`), so a changed
// threshold reaches partition through the ladder.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "levers/lever_vocabulary.hpp"
#include "partition/id_allocation.hpp"
#include "store/coverage.hpp"
#include "workspace/trace_meta.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::partition {

struct Inputs {
  std::vector<json::Value> rows;     // ladder-annotated version rows, file order
  workspace::TraceMeta meta;         // the "meta" object of work/meta.json
  std::vector<json::Value> profiles; // work/profiles.jsonl
  std::vector<KnownId> known;        // live and staging ids in this namespace
  std::vector<std::string> live_ids; // every id in the live store
  store::Coverage coverage;          // live coverage of the operator
  // Whether versions/kernel_<ver>.py exists in the trace.
  std::function<bool(const std::string &path)> snapshot_exists;
  std::size_t prose_min_chars = 80;
  std::size_t max_segments_per_version = SIZE_MAX; // limits.max_segments_per_version
  // The lever vocabulary (the `levers` section): accounts of one failed
  // lever (the same levers at the same stated values) are one segment.
  levers::LeverVocabulary levers = levers::LeverVocabulary::defaults();
};

struct Flag {
  std::string reason, text; // text: first 110 code points
};

struct Result {
  std::vector<json::Value> segments;
  std::map<char, int> seeds;
  std::vector<std::string> reused;
  std::vector<Flag> flagged;
  bool comparable = true;
  std::vector<std::string> other_sources;
  // Segments not made because their version already had
  // limits.max_segments_per_version of them: version → how many.
  std::map<std::string, std::size_t> over_limit;
  // Anti-strategy accounts merged into the segment of an earlier account
  // of the same failed lever (their occurrences are listed there).
  std::size_t merged_occurrences = 0;
};

// Builds the segments. Throws a NegativeVerdict Error naming up to five ids when an id
// repeats within the run or already exists in the live store (and was not
// handed back for the same source version).
Result run(const Inputs &in);

// A milestone of annotated rows: its row, the ladder's selection as its
// `kind` (baseline|milestone|mega|final) and `improve_pct` (null for
// baseline and final).
struct Milestone {
  const workspace::VersionRow *row = nullptr;
  std::string kind;
  json::Value improve_pct;
};
// The milestones of `rows`, in row order with a final last.
std::vector<Milestone> milestones(const std::vector<workspace::VersionRow> &rows);

// reports/<slug>/partition.md and the console summary.
std::string report(const Inputs &in, const Result &r);
std::string console_summary(const Result &r, const std::string &segments_path);

} // namespace otm::partition
