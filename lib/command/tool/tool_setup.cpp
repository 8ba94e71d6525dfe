#include "tool/tool_setup.hpp"

#include "error/error.hpp"

namespace otm::tool {

config::Settings settings_from(const cli::Options &opts) {
  auto settings = config::Settings::from_environment();
  settings.apply(opts);
  return settings;
}

ToolSetup tool_setup(const cli::Options &opts) {
  auto settings = settings_from(opts);
  auto config = config::Config::load(settings);
  return {std::move(settings), std::move(config)};
}

TraceToolSetup trace_tool_setup(const cli::Options &opts) {
  auto [settings, config] = tool_setup(opts);
  auto loc = trace::locate_trace(settings, config);
  return {std::move(settings), std::move(config), std::move(loc)};
}

void refuse_positionals(const cli::Options &opts, const std::string &hint) {
  if (!opts.positionals().empty())
    throw Error(ErrorKind::Usage, "unexpected argument '" + opts.positionals().front() + "'" + hint);
}

} // namespace otm::tool
