// The otm-packet stage as a whole: reads its work files, builds the packets
// (build.hpp) and prints their summary lines, unless its run record
// (run_record.hpp) shows that nothing it would read changed since the last
// run and the packets are as that run left them: then it rebuilds nothing
// and gives back what that run printed.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "cmdline/progress.hpp"
#include "config/config.hpp"
#include "packet/build.hpp"
#include "scrub/denylist.hpp"
#include "workspace/layout.hpp"

namespace otm::packet {

struct StageInputs {
  std::filesystem::path trace;
  workspace::Workspace workspace;
  std::string segments; // work/segments.jsonl, another file, or "-" for stdin
  Filters filters;
  const scrub::Denylist *denylist = nullptr;
  const config::Config *config = nullptr;
  std::string build; // cli::build_identity(): another build rebuilds
};

struct StageOutput {
  std::string out;      // one summary line per packet
  std::string report;   // the pre-flight report (preflight_report)
  bool clean = true;    // no packet leaks
  bool skipped = false; // nothing changed: the last run's output, nothing rebuilt
};

// `progress` makes the progress callback once the number of packets to
// build is known (not called when the run is skipped). Throws Error
// (UnreadableInput for a missing work file).
StageOutput run_stage(const StageInputs &in, const std::function<cli::ProgressFn(std::size_t packets)> &progress = {});

} // namespace otm::packet
