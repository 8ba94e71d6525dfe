#include "admission/gate_commands.hpp"

#include "admission/actions.hpp"
#include "admission/match.hpp"
#include "admission/merged_marker.hpp"
#include "admission/store_commit.hpp"
#include "admission/store_lock.hpp"
#include "error/error.hpp"
#include "io/file.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace {

json::Value read_record(const std::string &source) {
  if (source != "-" && !io::is_regular_file(source))
    throw io::IoError(source + ": no such record file (pass a record file, or - for stdin)");
  // An incoming record is untrusted: bounded, an object, not nested too deep.
  const std::string shown = source == "-" ? "<stdin>" : source;
  auto parsed = store::parse_record(io::read_input(source), shown, config::Limits{});
  if (!parsed.error.empty()) throw json::ParseError(parsed.error);
  return std::move(parsed.record);
}

void require_store_root(const std::filesystem::path &root) {
  if (root.empty())
    throw Error(ErrorKind::Usage, "no live store: pass --live DIR or set RTM_LIVE (the directory holding records/)");
  if (!io::is_directory(root))
    throw io::IoError(root.string() + ": the live store root is not a directory (pass the directory holding records/)");
}

} // namespace

GateReport run_match(const std::string &source, const std::filesystem::path &live_root, const RecordCheck &checks) {
  require_store_root(live_root);
  json::Value rec = read_record(source);
  GateReport rep;
  auto errors = validate_for_admission(rec, checks);
  if (!errors.empty()) {
    rep.exit_code = 1;
    rep.out = json::to_line(match_error_report(errors)) + "\n";
    return rep;
  }
  StoreLock lock(live_root, StoreLock::Mode::Shared);
  rep.out = json::to_line(match_report(rec, find_candidates(rec, live_root))) + "\n";
  return rep;
}

GateReport run_commit(const CommitCommand &cmd) {
  const std::string &a = cmd.action;
  if (a != "insert" && a != "confirm" && a != "conflict" && a != "auto")
    throw Error(ErrorKind::Usage, "unknown commit action '" + a + "' (insert, confirm, conflict or auto)");
  if ((a == "confirm" || a == "conflict") && (!cmd.target || cmd.target->empty()))
    throw Error(ErrorKind::Usage, "commit " + a + " needs --target ID (the existing live record)");
  require_store_root(cmd.live_root);
  json::Value rec = read_record(cmd.source);

  GateReport rep;
  auto errors = validate_for_admission(rec, cmd.checks);
  if (!errors.empty()) {
    rep.exit_code = 1;
    rep.err = "SCHEMA ERRORS:\n";
    for (const auto &e : errors) rep.err += "  - " + e + "\n";
    return rep;
  }

  StoreLock lock(cmd.live_root, StoreLock::Mode::Exclusive);
  recover_interrupted_commit(cmd.live_root);
  CommitRequest req{cmd.live_root, rec, cmd.target, cmd.when, cmd.builder_version};
  std::string action = a;
  if (a == "auto") {
    auto decision = decide_auto(rec, find_candidates(rec, cmd.live_root));
    rep.out += "auto: " + decision.action + (decision.target.empty() ? "" : " --target " + decision.target) + " (" +
               decision.reason + ")\n";
    action = decision.action;
    if (!decision.target.empty()) req.target = decision.target;
  }
  Outcome outcome = action == "insert"    ? insert_record(req)
                    : action == "confirm" ? confirm_record(req)
                                          : flag_conflict(req);
  rep.out += outcome.message + "\n";
  rep.exit_code = outcome.exit_code;
  if (outcome.mark_merged) {
    if (cmd.source == "-") {
      rep.err += "note: the record came from stdin, so no source file was marked merged\n";
    } else {
      mark_merged(cmd.source, outcome, rec, cmd.when);
      rep.out += "marked merged: " + store::merged_marker_path(cmd.source).string() + "\n";
    }
  }
  return rep;
}

} // namespace otm::admission
