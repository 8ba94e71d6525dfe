// The whole body of every otm-gate-<name> command (tools/driver/gate_main.cpp):
// `tool` is the command's name, whose <name> picks the registry's gate.
#pragma once

#include <string>

namespace otm::tool {

int run_gate_tool(const std::string &tool, int argc, char **argv);

} // namespace otm::tool
