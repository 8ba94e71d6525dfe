// otm-make-trace as a library call: a realistic optimisation trace made
// from options alone (see trace_options.hpp, story.hpp). Tests generate one
// per process into a temporary directory; the archive tooling makes many.
#pragma once

#include <filesystem>
#include <string>

#include "tracegen/story.hpp"
#include "tracegen/trace_options.hpp"

namespace otm::tracegen {

struct GeneratedTrace {
  std::filesystem::path dir; // <outdir>/kernel_opt_<number>_<op>
  Story story;               // what was committed, with its manifest
};

// Writes the trace under `outdir` (created if needed; the trace directory
// itself must not exist). Throws std::runtime_error on failure.
GeneratedTrace generate_trace(const std::filesystem::path &outdir, const TraceOptions &options);

// The manifest as JSON lines, one per version: {"version", "kind", "names",
// "subject", "commits"} and then the ground truth of VersionNote, in its
// order (bench/README.md, "The manifest").
std::string manifest_jsonl(const Story &story);

} // namespace otm::tracegen
