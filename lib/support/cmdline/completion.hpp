// Shell completions (bash and zsh) for the otm commands, made from each
// command's option table as its --help prints it (cli::Options::usage), so
// a completion can never offer an option the command does not have. The
// build runs every command's --help and `otm help` and writes both scripts
// (tools/completions/otm-completions.cpp); `cmake --install` puts them where
// bash-completion and zsh look.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::cli {

struct HelpOption {
  std::string name; // "trace" (the long name, without --)
  char alias = 0;   // 'o' for "-o, --output", else 0
  std::string meta; // "DIR"; empty for a flag
  std::string help; // the first line of its description
};

// The options of the "Options:" list of a --help text (as Options::usage
// prints it: "  -o, --output FILE   where", continuation lines indented).
std::vector<HelpOption> options_in_help(std::string_view help);

struct CommandCompletion {
  std::string command; // "otm-ingest"
  std::string summary; // its line of `otm help` ("" for none)
  std::vector<HelpOption> options;
};

// A bash script completing `otm`, `otm COMMAND` and every otm-COMMAND: the
// command names after `otm` (and `otm help`), the long options after "-", a
// file name for an option's value and for a positional argument.
std::string bash_completion(const std::vector<CommandCompletion> &commands);
// The same as a zsh completion function (#compdef otm otm-...).
std::string zsh_completion(const std::vector<CommandCompletion> &commands);

} // namespace otm::cli
