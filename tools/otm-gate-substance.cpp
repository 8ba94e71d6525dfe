// otm-gate-substance: one gate over records (docs/tools/otm-gate.md).
#include "gates/gate_cli.hpp"

int main(int argc, char **argv) { return otm::gates::run_gate_tool("substance", argc, argv); }
