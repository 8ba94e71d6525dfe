#include "admission/gate_command_line.hpp"

#include "error/error.hpp"
#include "io/file.hpp"
#include "workspace/layout.hpp"

namespace otm::admission {

void add_gate_options(cli::Options &opts) {
  opts.value("target", "ID", "existing live record id (confirm, conflict)");
  opts.value("schema", "FILE", "store schema (default: the live store's own, else the built-in clean-1.3)");
  config::Settings::add_options(opts, {config::Setting::Live, config::Setting::Denylist, config::Setting::ConfigFile});
  config::Settings::add_options(opts, live_git_settings());
}

GateRequest gate_request(const cli::Options &opts) {
  const auto &pos = opts.positionals();
  GateRequest request;
  request.target = opts.get("target");
  request.schema = opts.get("schema");
  if (pos.size() == 2 && pos[0] == "match") {
    if (request.target) throw Error(ErrorKind::Usage, "match takes no --target");
    request.command = GateRequest::Command::Match;
    request.sources = {pos[1]};
  } else if (pos.size() >= 3 && pos[0] == "commit") {
    request.command = GateRequest::Command::Commit;
    request.action = pos[1];
    request.sources.assign(pos.begin() + 2, pos.end());
  } else if (pos.size() == 1 && pos[0] == "compact") {
    if (request.target) throw Error(ErrorKind::Usage, "compact takes no --target");
    request.command = GateRequest::Command::Compact;
  } else {
    throw Error(ErrorKind::Usage, "expected 'match RECORD', 'commit ACTION RECORD' or 'compact' (see --help)");
  }
  return request;
}

namespace {

// One record file is one commit as ever; several, a staging store or a
// stream on stdin are a batch.
bool is_batch(const GateRequest &request) {
  const bool batch_action = request.action == "insert" || request.action == "auto";
  const auto &sources = request.sources;
  return !(sources.size() == 1 && !io::is_directory(sources[0]) && !(sources[0] == "-" && batch_action));
}

} // namespace

GateReport run_gate_request(const GateRequest &request, const config::Settings &settings,
                            const config::Config &config) {
  std::filesystem::path live = workspace::live_root(settings).value_or(std::filesystem::path());
  auto checks = [&] {
    return default_store_checks(live, request.schema, settings.get(config::Setting::Denylist), config);
  };
  switch (request.command) {
  case GateRequest::Command::Match: return run_match(request.sources[0], live, checks(), config.limits());
  case GateRequest::Command::Commit: {
    CommitCommand cmd{request.action, request.sources[0],      live, request.target, Timestamp::now(),
                      checks(),       config.builder_version()};
    cmd.git = live_git_options(settings, config);
    cmd.limits = config.limits();
    return is_batch(request) ? run_batch(cmd, request.sources) : run_commit(cmd);
  }
  case GateRequest::Command::Compact: {
    CommitCommand cmd{"compact", "", live, std::nullopt, Timestamp::now(), {}, config.builder_version()};
    cmd.git = live_git_options(settings, config);
    cmd.limits = config.limits();
    return run_compact(cmd);
  }
  }
  throw Error(ErrorKind::Usage, "no such admission gate command");
}

void print_gate_report(const GateReport &report, std::ostream &out, std::ostream &err) {
  out << report.out;
  if (report.out_stream) report.out_stream(out);
  out << std::flush;
  err << report.err << std::flush;
}

} // namespace otm::admission
