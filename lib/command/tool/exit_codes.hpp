// Exit codes shared by every otm executable (docs/exit-codes.md):
//   0  success / pass
//   1  ran, and the answer is negative: a gate failed, a leak was found,
//      ids clash, a record is invalid
//   2  could not run: bad usage, missing or unreadable input, a configuration
//      the tool refuses to guess (e.g. unknown hardware)
// This is the command layer: library code reports an otm::Error with a kind,
// and run_tool, the one place that decides, turns the kind into the code.
#pragma once

#include <functional>
#include <string>

#include "error/error.hpp"

namespace otm::tool {

enum ExitCode : int { kSuccess = 0, kFailure = 1, kCannotRun = 2 };

// NegativeVerdict is 1; every other kind means the run could not be made (2).
ExitCode exit_code(ErrorKind kind);

// Runs a tool body, printing "<tool>: <message>" on stderr for an error and
// returning its exit code (an exception that is not an otm::Error is an
// internal error, exit 2). Every main() is `return run_tool(...)`.
int run_tool(const std::string &tool, const std::function<int()> &body);

} // namespace otm::tool
