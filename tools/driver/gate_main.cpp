// otm-gate-<name>: one gate over records (docs/tools/otm-gate.md). Every gate
// of the registry is a command of this one main, which runs the gate its
// command name names; tools/CMakeLists.txt makes the commands from the
// registry, so a new gate is a new command with nothing to add here.
#include <string_view>

#include "otm_tools.hpp"
#include "tool/gate_tool.hpp"

int otm_gate_main(int argc, char **argv) {
  std::string_view name = argc > 0 && argv[0] ? argv[0] : "";
  if (auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  return otm::tool::run_gate_tool(std::string(name), argc, argv);
}
