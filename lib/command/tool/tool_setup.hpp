// The prologue every tool main shares, after it has declared and parsed its
// options: the settings (the environment, then the options over it), the
// configuration they name (defaults merged with --config / OTM_CONFIG) and,
// for a stage that reads a trace, where the trace and its outputs are. The
// one place a main loads the configuration, so every tool reads the same
// override the same way.
//
// lib/command/tool/ is what makes a tool: this prologue, run_tool and the
// exit codes, the gate executables' main. The command-line parser itself
// (cli::Options), the progress line and the build identity know nothing of
// tools or exit codes and live a layer down, in lib/support/cmdline/.
#pragma once

#include <string>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "trace/trace_location.hpp"

namespace otm::tool {

struct ToolSetup {
  config::Settings settings;
  config::Config config;
};

struct TraceToolSetup {
  config::Settings settings;
  config::Config config;
  trace::TraceLocation loc; // locate_trace(settings, config)
};

// The settings of a run: the environment's, then the parsed `opts` over them.
config::Settings settings_from(const cli::Options &opts);
// The settings and the configuration they name.
ToolSetup tool_setup(const cli::Options &opts);
// The settings, the configuration and the trace they name.
TraceToolSetup trace_tool_setup(const cli::Options &opts);

// A Usage Error "unexpected argument '<first>'<hint>" when `opts` has
// positional arguments; for the tools that take none.
void refuse_positionals(const cli::Options &opts, const std::string &hint = "");

} // namespace otm::tool
