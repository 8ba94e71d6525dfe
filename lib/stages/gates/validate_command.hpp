// otm-validate as a library call: all seventeen gates over a staging store
// (or --injection-tests), in the chosen report format.
#pragma once

#include <string>

#include "cmdline/progress.hpp"
#include "gates/context.hpp"

namespace otm::gates {

struct ValidateOptions {
  bool verbose = false;
  bool skip_store_gates = false;
  bool only_store_gates = false; // --store-gates: the store gates in one pass (gates/store_gates.hpp)
  bool injection_tests = false;
  // No records is a pass with nothing checked (the staging store of a trace
  // whose every packet was refused, e.g. already live), not exit 1.
  bool allow_empty = false;
  std::string format = "text"; // text | jsonl | sarif | junit
  std::string store_label;     // shown in reports
  cli::ProgressFn progress;    // called after each gate ran
};

struct ValidateOutcome {
  std::string report;  // stdout
  std::string summary; // one line for stderr
  int exit_code = 0;
};

// Exit code 1 when a gate group failed, an injection case was not proven, or
// there are no records (0 with allow_empty; the text report is then the
// Verdict::NothingToValidate line).
ValidateOutcome run_validate(const Context &ctx, const ValidateOptions &opts);

} // namespace otm::gates
