// The whole body of one otm-gate-<name> executable (tools/otm-gate-*.cpp).
#pragma once

#include <string>

namespace otm::cli {

int run_gate_tool(const std::string &gate, int argc, char **argv);

} // namespace otm::cli
