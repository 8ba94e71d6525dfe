#include "tool/front_door.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "cmdline/build_info.hpp"
#include "gates/gates.hpp"
#include "tool/exit_codes.hpp"

namespace otm::tool {

namespace {

constexpr std::string_view kPrefix = "otm-", kGatePrefix = "otm-gate-";

std::string_view base_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The directory of this executable, where its commands are linked; from the
// kernel's record of the file run, else from argv[0].
std::filesystem::path own_directory(std::string_view argv0) {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) exe = std::filesystem::absolute(std::filesystem::path(argv0), ec);
  return exe.parent_path();
}

const Command *find_by_name(CommandTable commands, std::string_view name) {
  for (const Command &command : commands)
    if (command.name == name) return &command;
  return nullptr;
}

std::string summary_of(const Command &command) {
  if (!command.summary.empty()) return std::string(command.summary);
  std::string gate(command.name.substr(kGatePrefix.size()));
  const auto *info = gates::find_gate(gate);
  return "one gate: " + (info ? info->summary : gate);
}

int no_such_command(std::string_view command, std::ostream &err) {
  err << "otm: '" << command << "' is no otm command; `otm help` lists them\n";
  return kCannotRun;
}

// Runs `command` as if invoked by its own name: argv[0] becomes the command's.
int run(const Command &command, int argc, char **argv) {
  std::string name(command.name);
  std::vector<char *> args{name.data()};
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  return command.main(static_cast<int>(args.size()) - 1, args.data());
}

// `otm help COMMAND`: the command's own --help.
int help_of(CommandTable commands, std::string_view command, std::ostream &err) {
  const Command *found = find_command(commands, command);
  if (!found) return no_such_command(command, err);
  char help[] = "--help";
  char *args[] = {help};
  return run(*found, 1, args);
}

} // namespace

const Command *find_command(CommandTable commands, std::string_view command) {
  if (command.starts_with(kPrefix)) return find_by_name(commands, command);
  return find_by_name(commands, std::string(kPrefix) + std::string(command));
}

std::string front_door_help(CommandTable commands) {
  std::string out = "usage: otm COMMAND [ARGS...]\n"
                    "       otm help [COMMAND]\n"
                    "       otm --version\n\n"
                    "otm mines a GPU-kernel optimization trace into gate-validated knowledge\n"
                    "records. Each command is also on PATH as otm-COMMAND (a link to this\n"
                    "executable); `otm COMMAND ARGS` runs it. It reads and writes what the\n"
                    "command does: `otm help COMMAND` shows the command's own --help, which\n"
                    "says what it reads, writes and refuses to decide.\n\n"
                    "Exit: the command's own (0 success, 1 a negative verdict, 2 could not\n"
                    "run); 2 for a name that is no command.\n\n"
                    "Commands:\n";
  std::size_t width = 0;
  for (const Command &command : commands) width = std::max(width, command.name.size() - kPrefix.size());
  for (const Command &command : commands) {
    std::string name(command.name.substr(kPrefix.size()));
    out += "  " + name + std::string(width + 2 - name.size(), ' ') + summary_of(command) + "\n";
  }
  return out;
}

int front_door(CommandTable commands, int argc, char **argv, std::ostream &out, std::ostream &err) {
  std::string_view first = argc > 1 && argv[1] ? argv[1] : "";
  if (first == "help" && argc > 2) return help_of(commands, argv[2], err);
  if (argc < 2 || first == "help" || first == "--help" || first == "-h") {
    out << front_door_help(commands);
    return kSuccess;
  }
  if (first == "--version") {
    out << cli::version_line("otm") << '\n';
    return kSuccess;
  }
  if (first.starts_with("-")) {
    err << "otm: unknown option '" << first << "' (see otm --help)\n";
    return kCannotRun;
  }
  const Command *command = find_command(commands, first);
  if (!command) return no_such_command(first, err);
  return run(*command, argc - 2, argv + 2);
}

int multi_call_main(CommandTable commands, int argc, char **argv, std::ostream &out, std::ostream &err) {
  std::string_view invoked = argc > 0 && argv[0] ? argv[0] : "otm";
  std::string_view name = base_name(invoked);
  if (const Command *command = find_by_name(commands, name)) return command->main(argc, argv);
  if (name == "otm") return front_door(commands, argc, argv, out, err);
  err << "otm: '" << name << "' is no otm command; this executable runs the tool its name names: run one of "
      << "the otm-* commands in " << own_directory(invoked).string() << " (e.g. otm-ingest --help), or `otm "
      << "help`\n";
  return kCannotRun;
}

} // namespace otm::tool
