// otm-gate-substance: one gate over records (docs/tools/otm-gate.md).
#include "cli/gate_tool.hpp"

int main(int argc, char **argv) { return otm::cli::run_gate_tool("substance", argc, argv); }
