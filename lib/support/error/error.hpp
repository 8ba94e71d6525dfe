// The library's one error type: a message and the kind of failure. Every
// exception lib/ throws is an otm::Error or a subclass of it (io::IoError,
// json::ParseError, git::GitError, schema::SchemaError, text::RegexError, ...:
// each only fixes its kind); the literals test refuses any other exception
// type in lib/. Library code never chooses an exit code: the command layer's
// tool::run_tool is the one place a kind becomes one (docs/exit-codes.md,
// docs/architecture.md).
#pragma once

#include <stdexcept>
#include <string>

namespace otm {

enum class ErrorKind {
  Usage,           // the run was asked for wrongly: an option, a missing setting
  UnreadableInput, // an input is missing or malformed (a trace, a work file, the configuration, a schema)
  Io,              // a file could not be read or written (io::IoError)
  Refused,         // a decision otm will not guess, such as the hardware; an input beyond a limit
  NegativeVerdict, // the run completed and its answer is negative
  Internal,        // a bug: otm's own invariant broke (never a property of the input)
};

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string &message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

private:
  ErrorKind kind_;
};

} // namespace otm
