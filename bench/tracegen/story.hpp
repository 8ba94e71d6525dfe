// The story of a generated trace: version by version, what the run tried,
// what it measured and what it wrote down, as the commits a producer would
// make (kernel.py, memory/v<N>.json, profiles/, versions/). Kept parameter
// changes named in their subjects (`BLOCK_SIZE 128 -> 256`, `num_warps=4 ->
// 8`, `num_stages`, cache modifiers, `ld.global.nc.v4.f32`), structural
// milestones, small and noisy steps, comment-only and docstring-only steps
// that claim a gain, re-committed versions, reverted dead-ends in list and
// prose form with their stated causes, accuracy failures, infrastructure
// outages, and bookkeeping commits.
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

// One line of the manifest: what version `version` is, for tests and for
// whoever reads a generated trace without mining it.
struct VersionNote {
  std::string version;
  std::string kind;               // "baseline", "param", "structural", "mega", "small", "comment-only", ...
  std::vector<std::string> names; // the parameters or identifiers its change text names
  std::string subject;
  std::size_t commits = 1;
};

struct Story {
  std::vector<Commit> commits;
  std::vector<VersionNote> manifest;
};

Story write_story(const TraceOptions &options);

} // namespace otm::tracegen
