// The story of a generated trace: version by version, what the run tried,
// what it measured and what it wrote down, as the commits a producer would
// make (kernel.py, memory/v<N>.json, profiles/, versions/). Kept parameter
// changes named in their subjects (`BLOCK_SIZE 128 -> 256`, `num_warps=4 ->
// 8`, `num_stages`, cache modifiers, `ld.global.nc.v4.f32`), structural
// milestones, small and noisy steps, comment-only and docstring-only steps
// that claim a gain, re-committed versions, reverted dead-ends in list and
// prose form with their stated causes, accuracy failures, infrastructure
// outages, and bookkeeping commits; on request the hostile shapes
// (tracegen/hostile_shapes.hpp). The manifest records each version's ground
// truth.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tracegen/trace_options.hpp"

namespace otm::tracegen {

struct FileChange {
  std::string path;
  std::optional<std::string> content; // nullopt: delete the file
};

struct Commit {
  std::string message; // subject, blank line, body
  std::vector<FileChange> files;
};

// A lever a list-form dead-end names, and whether its attempted code holds it.
struct ListedLever {
  std::string lever; // the list item as written
  bool in_code = false;
};

// One line of the manifest: what version `version` is, for tests and for
// whoever reads a generated trace without mining it. Past `commits`, the
// ground truth a miner is measured against (bench/README.md, "The manifest").
struct VersionNote {
  std::string version;
  std::string kind;               // "baseline", "param", "structural", "mega", "small", "comment-only", ...
  std::vector<std::string> names; // the parameters or identifiers its change text names
  std::string subject;
  std::size_t commits = 1;
  std::vector<std::string> hostile;           // the hostile shapes this version shows (their option names)
  std::optional<std::string> lever;           // the lever its prose names, in the prose's words
  std::string tried_on;                       // the version whose last commit holds the code it was tried on
  std::vector<std::string> code_names;        // what its own code changes, from that code
  std::vector<std::string> dead_names;        // those of code_names that no executed line reads
  bool runs = false;                          // whether its own change reaches an executed line
  std::size_t code_commit = 0;                // which of its commits (1-based) holds that code; 0: no kernel change
  std::optional<std::string> expected_impact; // "template", "specific", or none
  bool kept = false;                          // its code is the best-so-far kernel afterwards
  bool milestone = false;                     // beats the floor by the ladder's milestone_pct (full variant)
  std::string best_before;                    // the version holding the floor when it was tried
  std::vector<std::string> span;              // kept: the kept versions whose code the diff from best_before holds
  std::vector<std::string> span_code_names;   // kept: what that diff changes
  std::vector<std::string> span_dead_names;   // kept: those of span_code_names no executed line reads
  bool span_runs = false;                     // kept: whether that diff reaches an executed line
  std::vector<ListedLever> listed_levers;     // list-form dead-ends: every item
  bool pitfall_contradicts = false;           // a pitfall of its step record contradicts its measurement
  std::vector<std::string> refutes;           // versions whose recorded failure of this lever it keeps as a win
  std::vector<std::string> repeats;           // versions whose dead-end or pitfall it records again
  std::vector<std::string> quoted_versions; // version ids in its kernel's comments or docstring, or its capture reports
  std::vector<std::string> capture_dirs;    // the capture directories its commits add (each named v<N>...)
};

struct Story {
  std::vector<Commit> commits;
  std::vector<VersionNote> manifest;
};

Story write_story(const TraceOptions &options);

} // namespace otm::tracegen
