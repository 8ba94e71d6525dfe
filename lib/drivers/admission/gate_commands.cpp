#include "admission/gate_commands.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

#include "admission/actions.hpp"
#include "admission/batch_log.hpp"
#include "admission/git_store.hpp"
#include "admission/index_journal_writer.hpp"
#include "admission/match.hpp"
#include "admission/merged_marker.hpp"
#include "admission/store_commit.hpp"
#include "admission/store_lock.hpp"
#include "error/error.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "store/record_view.hpp"
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

// One record of a command: where it came from and what it is.
struct Item {
  std::string label;  // for messages: the file, or <stdin>:N
  std::string file;   // the source file to mark merged ("" for stdin)
  json::Value record; // null when `problems` says why it was not read
  std::vector<std::string> problems;
  bool read_error = false;
};

// One application of an action to the store as it is now: the auto
// policy's decision (made afresh, so a record another writer admitted
// meanwhile turns an insert into a confirm) and the action's outcome.
struct Applied {
  Outcome outcome;
  std::string out;      // stdout lines
  std::string decision; // the auto policy's decision and reason, for a commit message
};

Applied apply_action(const CommitCommand &cmd, const json::Value &rec, BatchLog *log = nullptr) {
  Applied a;
  CommitRequest req{cmd.live_root, rec, cmd.target, cmd.when, cmd.builder_version, cmd.limits};
  req.batch = log;
  std::string action = cmd.action;
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

// What one pass over the items did.
struct Pass {
  std::vector<std::optional<Applied>> applied; // per item; nullopt: not applied (it had problems)
  std::vector<std::string> changed;            // every file the pass changed, once
  bool folded = false;                         // records/index.json rewritten
};

void add_changed(std::vector<std::string> &changed, const std::vector<std::string> &paths) {
  for (const auto &p : paths)
    if (std::find(changed.begin(), changed.end(), p) == changed.end()) changed.push_back(p);
}

// Brings records/index.json up to date: the journal is crash safety inside
// one command, never state left between commands (docs/admission.md). In a
// batch, the new index's hash goes into the batch's log first.
bool fold_journal(const CommitCommand &cmd, std::vector<std::string> &changed, BatchLog *log = nullptr) {
  std::function<void(const std::string &)> logged;
  if (log) logged = [log](const std::string &text) { log->folding(text); };
  if (!compact_index(cmd.live_root, cmd.limits, logged)) return false;
  add_changed(changed, {workspace::kIndexRelpath, workspace::kJournalRelpath});
  return true;
}

// A batch's records, `limits.max_journal_entries` at a time (so the journal
// each record reads stays bounded): each chunk under a batch log, written
// without a flush per record, flushed once (syncfs) and folded into
// records/index.json (batch_log.hpp). A failure rolls the chunk back.
void apply_batch(const CommitCommand &cmd, std::vector<Item> &items, Pass &pass) {
  const std::size_t chunk = std::max<std::size_t>(1, cmd.limits.max_journal_entries);
  for (std::size_t from = 0; from < items.size();) {
    std::vector<std::size_t> which;
    std::vector<std::string> new_files;
    for (; from < items.size() && which.size() < chunk; ++from) {
      if (!items[from].problems.empty()) continue;
      which.push_back(from);
      try {
        new_files.push_back(workspace::store_relpath(record::record_relpath(items[from].record)));
      } catch (const std::exception &) {
        // no safe path: the action refuses it without writing
      }
    }
    if (which.empty()) continue;
    BatchLog log(cmd.live_root, new_files);
    try {
      for (std::size_t i : which) {
        pass.applied[i] = apply_action(cmd, items[i].record, &log);
        add_changed(pass.changed, pass.applied[i]->outcome.changed);
      }
      io::sync_file_system(cmd.live_root);
      if (fold_journal(cmd, pass.changed, &log)) pass.folded = true;
      log.finish();
    } catch (...) {
      // The chunk goes back to before it (the log says what it wrote).
      try {
        recover_interrupted_commit(cmd.live_root, cmd.limits);
      } catch (...) {
      }
      throw;
    }
  }
}

Pass apply_items(const CommitCommand &cmd, std::vector<Item> &items, bool batch) {
  Pass pass;
  pass.applied.resize(items.size());
  if (cmd.action == "compact") {
    Applied a;
    a.outcome.action = "compact";
    pass.folded = fold_journal(cmd, pass.changed);
    a.outcome.changed = pass.changed;
    a.outcome.message = pass.folded
                            ? "compacted: the index journal folded into " + std::string(workspace::kIndexRelpath)
                            : std::string("compacted: nothing to fold (no index journal)");
    a.out = a.outcome.message + "\n";
    pass.applied.assign(1, std::move(a));
    return pass;
  }
  if (batch) {
    apply_batch(cmd, items, pass);
    return pass;
  }
  try {
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!items[i].problems.empty()) continue;
      pass.applied[i] = apply_action(cmd, items[i].record);
      add_changed(pass.changed, pass.applied[i]->outcome.changed);
    }
  } catch (...) {
    // What was committed stays committed: the index still has to list it
    // (best effort; the next writer folds it otherwise).
    try {
      fold_journal(cmd, pass.changed);
    } catch (...) {
    }
    throw;
  }
  pass.folded = fold_journal(cmd, pass.changed);
  return pass;
}

// Re-runs the record-level checks (the store's own schema may have changed
// with the remote's head).
void revalidate(const CommitCommand &cmd, std::vector<Item> &items) {
  for (auto &item : items)
    if (!item.read_error) item.problems = validate_for_admission(item.record, cmd.checks);
}

std::string batch_commit_message(const CommitCommand &cmd, const std::vector<Item> &items, const Pass &pass) {
  std::size_t inserted = 0, confirmed = 0, queued = 0;
  std::string lines;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto &a = pass.applied[i];
    if (!a || a->outcome.exit_code != 0 || a->outcome.changed.empty()) continue;
    const auto &o = a->outcome;
    (o.action == "insert" ? inserted : o.action == "confirm" ? confirmed : queued)++;
    lines += o.action + " " + store::RecordView::shown(items[i].record).id.value_or("unknown");
    if (!o.target.empty()) lines += " (target " + o.target + ")";
    lines += "\n";
  }
  std::string msg = "otm: " + cmd.action + " batch: " + std::to_string(inserted) + " inserted, " +
                    std::to_string(confirmed) + " confirmed, " + std::to_string(queued) + " queued as conflicts\n\n";
  msg += lines;
  if (pass.folded) msg += "index: " + std::string(workspace::kIndexRelpath) + " rewritten\n";
  return msg;
}

// The git-backed store's loop (git_store.hpp): apply, commit, push; when
// the push is rejected, reset to the remote's new head and apply again.
Pass apply_with_git(const CommitCommand &cmd, std::vector<Item> &items, bool batch, GitStore &git, std::string &out,
                    std::string &err) {
  git.begin(); // refuses before changing anything, or marks the admission as under way
  bool abandoned = false;
  try {
    for (int attempt = 1;; ++attempt) {
      git.sync();
      if (attempt > 1 && cmd.action != "compact") revalidate(cmd, items);
      Pass pass = apply_items(cmd, items, batch);
      if (pass.changed.empty()) {
        git.finish();
        return pass;
      }
      std::string message;
      if (batch) {
        message = batch_commit_message(cmd, items, pass);
      } else {
        Outcome o = pass.applied[0] ? pass.applied[0]->outcome : Outcome{};
        o.changed = pass.changed;
        message = admission_commit_message(o, items.empty() ? json::Value::object() : items[0].record,
                                           pass.applied[0] ? pass.applied[0]->decision : std::string());
      }
      std::string sha = git.commit_paths(pass.changed, message);
      std::string note = "git: committed " + sha.substr(0, 12) + " on " + git.branch() + "\n";
      if (!git.pushes()) {
        git.finish();
        out += note;
        return pass;
      }
      auto pushed = git.push();
      if (pushed.pushed) {
        git.finish();
        out += note + "git: pushed to " + git.remote() + "/" + git.branch() + "\n";
        return pass;
      }
      err += "note: push " + std::to_string(attempt) + " of " + std::to_string(git.attempts()) +
             " rejected: " + pushed.message + "\n";
      if (attempt >= git.attempts()) {
        std::string state = git.abandon();
        abandoned = true;
        std::string what =
            cmd.action == "compact" ? std::string("the compaction")
            : batch                 ? "the batch of " + std::to_string(items.size()) + " records"
                    : "the admission of " + store::RecordView::shown(items[0].record).id.value_or("the record");
        throw git::GitWriteError(what + " was not pushed to " + git.remote() + " after " + std::to_string(attempt) +
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

// The git-backed view of the store, refused before anything reads it when
// its repository would not hold the store's bytes or its local remote's
// hooks would be bypassed (git_store.hpp).
std::optional<GitStore> open_git(const CommitCommand &cmd, std::string &err) {
  auto git = GitStore::open(cmd.live_root, cmd.git);
  if (git) {
    git->refuse_hostile_setup();
    err += git->notes();
  }
  return git;
}

Item item_of(std::string label, std::string file, std::string_view text, const RecordCheck &checks) {
  Item item;
  item.label = std::move(label);
  item.file = std::move(file);
  auto parsed = store::parse_record(text, item.label, config::Limits{});
  if (!parsed.error.empty()) {
    item.problems.push_back(parsed.error);
    item.read_error = true;
    return item;
  }
  item.record = std::move(parsed.record);
  item.problems = validate_for_admission(item.record, checks);
  return item;
}

// The records of a batch's sources, in order, each read and validated.
std::vector<Item> read_items(const std::vector<std::string> &sources, const RecordCheck &checks) {
  std::vector<Item> items;
  bool stdin_taken = false;
  for (const auto &source : sources) {
    if (source == "-") {
      if (stdin_taken) throw Error(ErrorKind::Usage, "- (stdin) given twice");
      stdin_taken = true;
      std::string text = io::read_input("-", config::Limits{}.input_bounds());
      // One JSON record (pretty or not), else a JSONL stream of them.
      auto whole = store::parse_record(text, "<stdin>", config::Limits{});
      if (whole.error.empty() || text.find_first_not_of(" \t\r\n") == std::string::npos) {
        if (!text.empty() && text.find_first_not_of(" \t\r\n") != std::string::npos)
          items.push_back(item_of("<stdin>", "", text, checks));
        continue;
      }
      std::size_t n = 0, at = 0;
      while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        std::string_view line = std::string_view(text).substr(at, nl == std::string::npos ? nl : nl - at);
        at = nl == std::string::npos ? text.size() : nl + 1;
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        items.push_back(item_of("<stdin>:" + std::to_string(n), "", line, checks));
      }
      continue;
    }
    if (io::is_directory(source)) {
      // A staging store: the directory holding records/.
      if (!io::is_directory(std::filesystem::path(source) / workspace::kRecordsDirName))
        throw Error(ErrorKind::Usage, source + ": a directory without records/ (pass record files, a staging store "
                                               "holding records/, or - for a JSONL stream)");
      for (auto &f : store::record_files(source)) {
        std::string path = f.path.string();
        if (!f.parse_error.empty()) {
          Item item;
          item.label = path;
          item.problems.push_back(f.parse_error);
          item.read_error = true;
          items.push_back(std::move(item));
          continue;
        }
        std::string text;
        try {
          text = io::read_file(f.path);
        } catch (const io::IoError &e) {
          Item item;
          item.label = path;
          item.problems.push_back(e.what());
          item.read_error = true;
          items.push_back(std::move(item));
          continue;
        }
        items.push_back(item_of(path, path, text, checks));
      }
      continue;
    }
    if (!io::is_regular_file(source))
      throw io::IoError(source + ": no such record file (pass record files, a staging store, or - for stdin)");
    items.push_back(item_of(source, source, io::read_file(source), checks));
  }
  return items;
}

// Runs `items` under the lock (single: one record, the pre-batch output).
GateReport run_items(const CommitCommand &cmd, std::vector<Item> items, bool batch) {
  GateReport rep;
  auto prefix = [&](const std::string &label, const std::string &lines) {
    if (!batch) return lines;
    std::string out;
    std::size_t at = 0;
    while (at < lines.size()) {
      std::size_t nl = lines.find('\n', at);
      out += label + ": " + lines.substr(at, nl == std::string::npos ? nl : nl - at + 1);
      at = nl == std::string::npos ? lines.size() : nl + 1;
    }
    return out;
  };
  auto problems_text = [](const Item &item) {
    std::string s = item.read_error ? "NOT READ:\n" : "SCHEMA ERRORS:\n";
    for (const auto &e : item.problems) s += "  - " + e + "\n";
    return s;
  };
  bool any_valid = std::any_of(items.begin(), items.end(), [](const Item &i) { return i.problems.empty(); });
  if (!batch && !any_valid) {
    rep.exit_code = 1;
    rep.err = problems_text(items[0]);
    return rep;
  }
  Pass pass;
  std::string git_out;
  // Held until the sources are marked merged (a ledger is read, appended
  // and rewritten: concurrent admissions of one source must not lose one).
  std::optional<StoreLock> lock;
  if (any_valid) {
    lock.emplace(cmd.live_root, StoreLock::Mode::Exclusive);
    auto git = open_git(cmd, rep.err);
    recover_interrupted_commit(cmd.live_root, cmd.limits);
    pass = git ? apply_with_git(cmd, items, batch, *git, git_out, rep.err) : apply_items(cmd, items, batch);
  } else {
    pass.applied.resize(items.size());
  }
  std::size_t counts[3] = {0, 0, 0};
  std::vector<std::string> refused;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item &item = items[i];
    if (!pass.applied[i]) {
      rep.err += prefix(item.label, problems_text(item));
      refused.push_back(item.label);
      continue;
    }
    const Applied &a = *pass.applied[i];
    rep.out += prefix(item.label, a.out);
    if (a.outcome.exit_code != 0) refused.push_back(item.label);
    if (a.outcome.exit_code == 0 && a.outcome.mark_merged) {
      const auto &act = a.outcome.action;
      ++counts[act == "insert" ? 0 : act == "confirm" ? 1 : 2];
    }
  }
  rep.out += git_out;
  // The source is marked merged once the admission counts: after the git
  // commit (the push, with a remote), which apply_with_git has made.
  // A batch writes its ledgers unflushed and flushes each file system
  // that holds one once (a lost ledger only offers its record again, which
  // admission finds done).
  std::map<dev_t, std::string> flush; // one path per file system
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!pass.applied[i] || !pass.applied[i]->outcome.mark_merged) continue;
    if (items[i].file.empty()) {
      rep.err += prefix(items[i].label, "note: the record came from stdin, so no source file was marked merged\n");
    } else {
      mark_merged(items[i].file, pass.applied[i]->outcome, items[i].record, cmd.when,
                  batch ? io::FileClass::Scratch : io::FileClass::Live);
      if (!batch) rep.out += "marked merged: " + store::merged_marker_path(items[i].file).string() + "\n";
      struct stat st {};
      if (batch && ::stat(items[i].file.c_str(), &st) == 0) flush.emplace(st.st_dev, items[i].file);
    }
  }
  for (const auto &[dev, file] : flush) io::sync_file_system(file);
  rep.exit_code = refused.empty() ? 0 : 1;
  if (batch) {
    for (const auto &r : refused) rep.out += "refused: " + r + "\n";
    rep.out += "batch: " + std::to_string(items.size()) + " records offered, " + std::to_string(counts[0]) +
               " inserted, " + std::to_string(counts[1]) + " confirmed, " + std::to_string(counts[2]) +
               " queued as conflicts, " + std::to_string(refused.size()) + " refused" +
               (pass.folded ? "; " + std::string(workspace::kIndexRelpath) + " rewritten" : "") + "\n";
  }
  return rep;
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
  std::vector<Item> items(1);
  items[0].label = cmd.source == "-" ? "<stdin>" : cmd.source;
  items[0].file = cmd.source == "-" ? "" : cmd.source;
  items[0].problems = validate_for_admission(rec, cmd.checks);
  items[0].record = std::move(rec);
  return run_items(cmd, std::move(items), false);
}

GateReport run_batch(const CommitCommand &cmd, const std::vector<std::string> &sources) {
  const std::string &a = cmd.action;
  if (a != "insert" && a != "auto")
    throw Error(ErrorKind::Usage, "commit " + a +
                                      " takes one record (a batch is commit insert|auto RECORD...: each record "
                                      "decides its own target)");
  if (cmd.target) throw Error(ErrorKind::Usage, "a batch takes no --target (commit insert|auto RECORD...)");
  if (sources.empty()) throw Error(ErrorKind::Usage, "commit " + a + " needs a RECORD (a file, a staging store or -)");
  require_store_root(cmd.live_root);
  auto items = read_items(sources, cmd.checks);
  // One JSON document on stdin is one record: reported as a single commit is.
  bool single = sources.size() == 1 && sources[0] == "-" && items.size() == 1 && items[0].label == "<stdin>";
  if (items.empty()) throw Error(ErrorKind::Usage, "no record to admit in " + sources[0]);
  return run_items(cmd, std::move(items), !single);
}

GateReport run_compact(const CommitCommand &cmd) {
  require_store_root(cmd.live_root);
  CommitCommand c = cmd;
  c.action = "compact";
  GateReport rep;
  StoreLock lock(c.live_root, StoreLock::Mode::Exclusive);
  auto git = open_git(c, rep.err);
  recover_interrupted_commit(c.live_root, c.limits);
  std::vector<Item> none;
  std::string git_out;
  Pass pass = git ? apply_with_git(c, none, false, *git, git_out, rep.err) : apply_items(c, none, false);
  if (!pass.applied.empty() && pass.applied[0]) rep.out += pass.applied[0]->out;
  rep.out += git_out;
  return rep;
}

} // namespace otm::admission
