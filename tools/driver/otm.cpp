// otm: the one executable behind every otm-* command. Each command is a hard
// link to it, and it runs the tool its name (argv[0]) names, as git and
// LLVM's driver do: the libraries are linked, stored, mapped and relocated
// once instead of once per tool (docs/architecture.md, "One executable, many
// names"). Under any other name, its own included, it is no command: it says
// where the commands are and exits as a usage error.
#include <filesystem>
#include <iostream>
#include <string_view>

#include "otm_tools.hpp"
#include "tool/exit_codes.hpp"

namespace {

struct Tool {
  std::string_view name;
  int (*main)(int argc, char **argv);
};

constexpr Tool kTools[] = {
#define OTM_TOOL(name, entry) {name, entry},
    OTM_TOOL_LIST
#undef OTM_TOOL
};

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

} // namespace

int main(int argc, char **argv) {
  std::string_view invoked = argc > 0 && argv[0] ? argv[0] : "otm";
  std::string_view name = base_name(invoked);
  for (const Tool &tool : kTools)
    if (tool.name == name) return tool.main(argc, argv);
  std::cerr << "otm: '" << name << "' is no otm command; this executable runs the tool its name names: run one of "
            << "the otm-* commands in " << own_directory(invoked).string() << " (e.g. otm-ingest --help)\n";
  return otm::tool::kCannotRun;
}
