#include <filesystem>
#include <iostream>

#include "cli/diagnostics.hpp"
#include "cli/exit_codes.hpp"

namespace otm::cli {

ExitCode exit_code(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::NegativeVerdict: return kFailure;
  case ErrorKind::Usage:
  case ErrorKind::UnreadableInput:
  case ErrorKind::Io:
  case ErrorKind::Refused: break;
  }
  return kCannotRun;
}

int run_tool(const std::string &tool, const std::function<int()> &body) {
  // Every diagnostic of the run, the error below included, escaped.
  EscapedStderr escaped;
  try {
    return body();
  } catch (const Error &e) {
    std::cerr << tool << ": " << e.what() << '\n';
    return exit_code(e.kind());
  } catch (const std::filesystem::filesystem_error &e) {
    // A directory that cannot be created (read-only, a file in the way).
    std::cerr << tool << ": " << e.path1().string() << ": cannot be created or written (" << e.code().message()
              << ")\n";
    return kCannotRun;
  } catch (const std::exception &e) {
    std::cerr << tool << ": internal error: " << e.what() << '\n';
    return kCannotRun;
  }
}

} // namespace otm::cli
