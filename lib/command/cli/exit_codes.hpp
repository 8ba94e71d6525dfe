// Exit codes shared by every otm executable (docs/exit-codes.md):
//   0  success / pass
//   1  ran, and the answer is negative: a gate failed, a leak was found,
//      ids clash, a record is invalid
//   2  could not run: bad usage, missing or unreadable input, a configuration
//      the tool refuses to guess (e.g. unknown hardware)
#pragma once

#include <stdexcept>
#include <string>

namespace otm::cli {

enum ExitCode : int { kSuccess = 0, kFailure = 1, kCannotRun = 2 };

// Thrown for anything that makes a run impossible; the message is printed as
// "<tool>: <message>" and the process exits 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Thrown when the run completed but its verdict is negative (exit 1).
class Refusal : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace otm::cli
