#include <filesystem>
#include <iostream>

#include "cmdline/diagnostics.hpp"
#include "tool/exit_codes.hpp"

namespace otm::tool {

ExitCode exit_code(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::NegativeVerdict: return kFailure;
  case ErrorKind::Usage:
  case ErrorKind::UnreadableInput:
  case ErrorKind::Io:
  case ErrorKind::Refused:
  case ErrorKind::Internal: break;
  }
  return kCannotRun;
}

int run_tool(const std::string &tool, const std::function<int()> &body) {
  // Every diagnostic of the run, the error below included, escaped.
  cli::EscapedStderr escaped;
  try {
    return body();
  } catch (const Error &e) {
    // Internal is otm's own bug: said so, so it is reported, not worked around.
    std::cerr << tool << ": " << (e.kind() == ErrorKind::Internal ? "internal error: " : "") << e.what() << '\n';
    return exit_code(e.kind());
  } catch (const std::filesystem::filesystem_error &e) {
    // A directory that cannot be created (read-only, a file in the way).
    std::cerr << tool << ": " << e.path1().string() << ": cannot be created or written (" << e.code().message()
              << ")\n";
    return kCannotRun;
  } catch (const std::exception &e) {
    // Not an otm::Error, so not thrown by lib/ itself (the literals test
    // refuses any other exception type there): the standard library's, such
    // as std::out_of_range from a bug or std::bad_alloc.
    std::cerr << tool << ": internal error: " << e.what() << '\n';
    return kCannotRun;
  }
}

} // namespace otm::tool
