// The library's one error type: a message and the kind of failure. Library
// code throws it (io::IoError and json::ParseError are kinds of it) and never
// chooses an exit code; the command layer's cli::run_tool is the one place a
// kind becomes one (docs/exit-codes.md, docs/architecture.md).
#pragma once

#include <stdexcept>
#include <string>

namespace otm {

enum class ErrorKind {
  Usage,           // the run was asked for wrongly: an option, a missing setting
  UnreadableInput, // an input is missing or malformed (a trace, a work file, the configuration)
  Io,              // a file could not be read or written (io::IoError)
  Refused,         // a decision otm will not guess, such as the hardware
  NegativeVerdict, // the run completed and its answer is negative
};

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string &message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

private:
  ErrorKind kind_;
};

} // namespace otm
