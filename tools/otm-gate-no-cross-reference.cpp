// otm-gate-no-cross-reference: one gate over records (docs/tools/otm-gate.md).
#include "cli/gate_tool.hpp"
#include "otm_tools.hpp"

int otm_gate_no_cross_reference_main(int argc, char **argv) {
  return otm::cli::run_gate_tool("no-cross-reference", argc, argv);
}
