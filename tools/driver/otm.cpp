// otm: the one executable behind every otm-* command, and their front door.
//
// Each command is a hard link to it, and it runs the tool its name (argv[0])
// names, as git and LLVM's driver do: the libraries are linked, stored,
// mapped and relocated once instead of once per tool (docs/architecture.md,
// "One executable, many names"). Run as `otm`, it is git-style: `otm COMMAND
// ARGS` runs otm-COMMAND, `otm`, `otm help` and `otm --help` list the
// commands (one line each, from the table that makes the links), `otm help
// COMMAND` is `otm-COMMAND --help`, `otm --version` its version. Under any
// other name it is no command: it says where the commands are, exit 2.
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cmdline/build_info.hpp"
#include "gates/gates.hpp"
#include "otm_tools.hpp"
#include "tool/exit_codes.hpp"

namespace {

struct Tool {
  std::string_view name;
  int (*main)(int argc, char **argv);
  std::string_view summary; // "" for a gate command: the registry's
};

constexpr Tool kTools[] = {
#define OTM_TOOL(name, entry, summary) {name, entry, summary},
    OTM_TOOL_LIST
#undef OTM_TOOL
};

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

const Tool *find_tool(std::string_view name) {
  for (const Tool &tool : kTools)
    if (tool.name == name) return &tool;
  return nullptr;
}

// `otm COMMAND` names otm-COMMAND; the full name is taken too.
const Tool *find_command(std::string_view command) {
  if (command.starts_with(kPrefix)) return find_tool(command);
  return find_tool(std::string(kPrefix) + std::string(command));
}

std::string summary_of(const Tool &tool) {
  if (!tool.summary.empty()) return std::string(tool.summary);
  std::string gate(tool.name.substr(kGatePrefix.size()));
  const auto *info = otm::gates::find_gate(gate);
  return "one gate: " + (info ? info->summary : gate);
}

std::string help_text() {
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
  for (const Tool &tool : kTools) width = std::max(width, tool.name.size() - kPrefix.size());
  for (const Tool &tool : kTools) {
    std::string name(tool.name.substr(kPrefix.size()));
    out += "  " + name + std::string(width + 2 - name.size(), ' ') + summary_of(tool) + "\n";
  }
  return out;
}

int no_such_command(std::string_view command) {
  std::cerr << "otm: '" << command << "' is no otm command; `otm help` lists them\n";
  return otm::tool::kCannotRun;
}

// Runs `tool` as if invoked by its own name: argv[0] becomes the command's.
int run(const Tool &tool, int argc, char **argv) {
  std::string name(tool.name);
  std::vector<char *> args{name.data()};
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  return tool.main(static_cast<int>(args.size()) - 1, args.data());
}

// `otm ...`: the front door.
int front_door(int argc, char **argv) {
  std::string_view first = argc > 1 && argv[1] ? argv[1] : "";
  if (argc < 2 || first == "help" || first == "--help" || first == "-h") {
    if (first == "help" && argc > 2) {
      const Tool *tool = find_command(argv[2]);
      if (!tool) return no_such_command(argv[2]);
      char help[] = "--help";
      char *args[] = {help};
      return run(*tool, 1, args);
    }
    std::cout << help_text();
    return otm::tool::kSuccess;
  }
  if (first == "--version") {
    std::cout << otm::cli::version_line("otm") << '\n';
    return otm::tool::kSuccess;
  }
  if (first.starts_with("-")) {
    std::cerr << "otm: unknown option '" << first << "' (see otm --help)\n";
    return otm::tool::kCannotRun;
  }
  const Tool *tool = find_command(first);
  if (!tool) return no_such_command(first);
  return run(*tool, argc - 2, argv + 2);
}

} // namespace

int main(int argc, char **argv) {
  std::string_view invoked = argc > 0 && argv[0] ? argv[0] : "otm";
  std::string_view name = base_name(invoked);
  if (const Tool *tool = find_tool(name)) return tool->main(argc, argv);
  if (name == "otm") return front_door(argc, argv);
  std::cerr << "otm: '" << name << "' is no otm command; this executable runs the tool its name names: run one of "
            << "the otm-* commands in " << own_directory(invoked).string() << " (e.g. otm-ingest --help), or `otm "
            << "help`\n";
  return otm::tool::kCannotRun;
}
