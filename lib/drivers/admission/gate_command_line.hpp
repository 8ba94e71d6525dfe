// otm-wiki-gate's command line: the options it declares, and the command
// they ask for, run on the live store (the executable only parses the
// options and prints the report: tools/otm-wiki-gate.cpp).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "admission/gate_commands.hpp"
#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"

namespace otm::admission {

// Declares otm-wiki-gate's options on `opts`: --target, --schema, the live
// store, the denylist, the configuration file and the git-backed store's
// settings (live_git_settings).
void add_gate_options(cli::Options &opts);

// What a command line asks of the admission gate.
struct GateRequest {
  enum class Command { Match, Commit, Compact };
  Command command = Command::Match;
  std::string action;                // commit: insert, confirm, conflict or auto (run_commit judges it)
  std::vector<std::string> sources;  // match: the record; commit: the records (files, staging stores, -)
  std::optional<std::string> target; // --target
  std::optional<std::string> schema; // --schema
};

// The request of the parsed `opts`: `match RECORD`, `commit ACTION
// RECORD...` or `compact`. Throws a Usage Error for anything else, and for
// a --target given to match or compact.
GateRequest gate_request(const cli::Options &opts);

// Runs `request` on the live store `settings` name (--live / RTM_LIVE),
// validating with the store's checks (--schema, --denylist): one commit for
// one record file, a batch (run_batch) for several, a staging store or a
// stream on stdin.
GateReport run_gate_request(const GateRequest &request, const config::Settings &settings, const config::Config &config);

// Prints `report`: its stdout (the text, then what it streams), then its
// stderr.
void print_gate_report(const GateReport &report, std::ostream &out, std::ostream &err);

} // namespace otm::admission
