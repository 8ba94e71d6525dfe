#include "admission/gate_commands.hpp"

#include <sstream>

#include "admission/actions.hpp"
#include "admission/git_store.hpp"
#include "admission/index_journal_writer.hpp"
#include "admission/match.hpp"
#include "admission/merged_marker.hpp"
#include "admission/store_commit.hpp"
#include "admission/store_lock.hpp"
#include "error/error.hpp"
#include "io/file.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace {

json::Value read_record(const std::string &source) {
  if (source != "-" && !io::is_regular_file(source))
    throw io::IoError(source + ": no such record file (pass a record file, or - for stdin)");
  // An incoming record is untrusted: bounded, an object, not nested too deep.
  const std::string shown = source == "-" ? "<stdin>" : source;
  auto parsed = store::parse_record(io::read_input(source, config::Limits{}.input_bounds()), shown, config::Limits{});
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

GateReport run_match(const std::string &source, const std::filesystem::path &live_root, const RecordCheck &checks,
                     const config::Limits &limits) {
  require_store_root(live_root);
  json::Value rec = read_record(source);
  GateReport rep;
  auto errors = validate_for_admission(rec, checks);
  if (!errors.empty()) {
    rep.exit_code = 1;
    rep.out = json::to_line(match_error_report(errors)) + "\n";
    return rep;
  }
  auto found = std::make_shared<MatchResult>();
  {
    StoreLock lock(live_root, StoreLock::Mode::Shared);
    *found = find_candidates(rec, live_root, limits);
  }
  // What the report is made of stays readable without the lock: the keys
  // index is mapped, the journal and what was read are held.
  rep.out_stream = [found, rec = std::move(rec)](std::ostream &os) {
    write_match_report(rec, *found, [&](std::string_view piece) { os.write(piece.data(), piece.size()); });
  };
  return rep;
}

std::string GateReport::out_text() const {
  std::ostringstream os;
  os << out;
  if (out_stream) out_stream(os);
  return os.str();
}

namespace {

// One application of the action to the store as it is now: the auto
// policy's decision (made afresh, so a record another writer admitted
// meanwhile turns an insert into a confirm) and the action's outcome.
struct Applied {
  Outcome outcome;
  std::string out;      // stdout lines
  std::string decision; // the auto policy's decision and reason, for a commit message
};

Applied apply_action(const CommitCommand &cmd, const json::Value &rec) {
  Applied a;
  CommitRequest req{cmd.live_root, rec, cmd.target, cmd.when, cmd.builder_version, cmd.limits};
  std::string action = cmd.action;
  if (action == "compact") {
    a.outcome.action = "compact";
    if (compact_index(cmd.live_root, cmd.limits)) {
      a.outcome.changed = {workspace::kIndexRelpath, workspace::kJournalRelpath};
      a.outcome.message = "compacted: the index journal folded into " + std::string(workspace::kIndexRelpath);
    } else {
      a.outcome.message = "compacted: nothing to fold (no index journal)";
    }
    a.out += a.outcome.message + "\n";
    return a;
  }
  if (action == "auto") {
    auto decision = decide_auto(rec, find_candidates(rec, cmd.live_root, cmd.limits));
    a.decision = decision.action + (decision.target.empty() ? "" : " --target " + decision.target) + " (" +
                 decision.reason + ")";
    a.out += "auto: " + a.decision + "\n";
    action = decision.action;
    if (!decision.target.empty()) req.target = decision.target;
  }
  a.outcome = action == "insert" ? insert_record(req) : action == "confirm" ? confirm_record(req) : flag_conflict(req);
  a.out += a.outcome.message + "\n";
  return a;
}

// The git-backed store's loop (git_store.hpp): apply, commit, push; when
// the push is rejected, reset to the remote's new head and apply again.
Applied apply_with_git(const CommitCommand &cmd, const json::Value &rec, GitStore &git, GateReport &rep) {
  git.begin(); // refuses before changing anything, or marks the admission as under way
  bool abandoned = false;
  try {
    for (int attempt = 1;; ++attempt) {
      git.sync();
      if (attempt > 1 && cmd.action != "compact") {
        // The record-level gates again, on the new state of the store.
        if (auto errors = validate_for_admission(rec, cmd.checks); !errors.empty()) {
          Applied refused;
          refused.outcome.exit_code = 1;
          rep.err += "SCHEMA ERRORS:\n";
          for (const auto &e : errors) rep.err += "  - " + e + "\n";
          git.finish();
          return refused;
        }
      }
      Applied a = apply_action(cmd, rec);
      if (a.outcome.exit_code != 0 || a.outcome.changed.empty()) {
        git.finish();
        return a;
      }
      std::string sha = git.commit(a.outcome, rec, a.decision);
      a.out += "git: committed " + sha.substr(0, 12) + " on " + git.branch() + "\n";
      if (!git.pushes()) {
        git.finish();
        return a;
      }
      auto pushed = git.push();
      if (pushed.pushed) {
        a.out += "git: pushed to " + git.remote() + "/" + git.branch() + "\n";
        git.finish();
        return a;
      }
      rep.err += "note: push " + std::to_string(attempt) + " of " + std::to_string(git.attempts()) +
                 " rejected: " + pushed.message + "\n";
      if (attempt >= git.attempts()) {
        std::string state = git.abandon();
        abandoned = true;
        throw git::GitWriteError("the admission of " + rec.string_or("id", "the record") + " was not pushed to " +
                                 git.remote() + " after " + std::to_string(attempt) +
                                 " attempts (other writers kept pushing first); nothing was admitted: " + state +
                                 ". Run it again, or raise --push-attempts / OTM_LIVE_PUSH_ATTEMPTS "
                                 "(live_git.push_attempts)");
      }
      git.backoff(attempt);
    }
  } catch (const git::GitWriteError &e) {
    if (abandoned) throw;
    std::string state = git.abandon();
    throw git::GitWriteError(std::string(e.what()) + "; the admission was undone (" + state +
                             "): fix the repository and admit again");
  } catch (...) {
    if (!abandoned) git.abandon();
    throw;
  }
}

} // namespace

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
  recover_interrupted_commit(cmd.live_root, cmd.limits);
  auto git = GitStore::open(cmd.live_root, cmd.git);
  Applied applied = git ? apply_with_git(cmd, rec, *git, rep) : apply_action(cmd, rec);
  const Outcome &outcome = applied.outcome;
  rep.out += applied.out;
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

GateReport run_compact(const CommitCommand &cmd) {
  require_store_root(cmd.live_root);
  CommitCommand c = cmd;
  c.action = "compact";
  GateReport rep;
  StoreLock lock(c.live_root, StoreLock::Mode::Exclusive);
  recover_interrupted_commit(c.live_root, c.limits);
  auto git = GitStore::open(c.live_root, c.git);
  const json::Value none = json::Value::object();
  Applied applied = git ? apply_with_git(c, none, *git, rep) : apply_action(c, none);
  rep.out += applied.out;
  rep.exit_code = applied.outcome.exit_code;
  return rep;
}

} // namespace otm::admission
