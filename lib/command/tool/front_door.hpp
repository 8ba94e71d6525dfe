// otm: the one executable behind every otm-* command, and their front door
// (docs/architecture.md, "One executable, many names").
//
// Each command is a hard link to the executable, and it runs the command its
// name (argv[0]) names, as git and LLVM's driver do. Run as `otm`, it is
// git-style: `otm COMMAND ARGS` runs otm-COMMAND, `otm`, `otm help` and `otm
// --help` list the commands (one line each, from the table that makes the
// links), `otm help COMMAND` is `otm-COMMAND --help`, `otm --version` its
// version. Under any other name it is no command: it says where the commands
// are, exit 2.
//
// The table of commands is the executable's (tools/driver/otm.cpp, generated
// from tools/otm-*.cpp and the gate registry): this library cannot name the
// tools' mains, so it takes the table as an argument.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace otm::tool {

// One command of the executable.
struct Command {
  std::string_view name; // otm-ingest
  int (*main)(int argc, char **argv);
  std::string_view summary; // one line for `otm help`; "" for a gate command: the registry's
};

using CommandTable = std::span<const Command>;

// The command `command` names: otm-COMMAND, or the full name; null for none.
const Command *find_command(CommandTable commands, std::string_view command);

// `otm help`: the usage, then one line per command.
std::string front_door_help(CommandTable commands);

// `otm ARGS...` (argv[0] is otm's): lists the commands, prints the version or
// runs the command argv[1] names with the rest.
int front_door(CommandTable commands, int argc, char **argv, std::ostream &out, std::ostream &err);

// The executable's whole main: the command argv[0]'s last component names,
// the front door under the name `otm`, else a usage error (exit 2) naming
// where the commands are.
int multi_call_main(CommandTable commands, int argc, char **argv, std::ostream &out, std::ostream &err);

} // namespace otm::tool
