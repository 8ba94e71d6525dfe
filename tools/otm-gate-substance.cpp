// otm-gate-substance: one gate over records (docs/tools/otm-gate.md).
#include "cli/gate_tool.hpp"
#include "otm_tools.hpp"

int otm_gate_substance_main(int argc, char **argv) { return otm::cli::run_gate_tool("substance", argc, argv); }
