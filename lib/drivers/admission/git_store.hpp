// The live store as a git repository (docs/scale-out.md, "A git-backed live
// store"). When the live store is a git work tree, each admission that
// changes it is one commit of exactly the files it wrote, made with
// libgit2 under the store's exclusive lock after the store's own atomic
// commit; with a remote, the commit is pushed, and a push the remote
// rejects (another writer admitted first) is undone, the store is reset to
// the remote's head and the admission is applied again on top of it, with
// backoff, up to a bound.
//
// In a git-backed store the admission's commit point is the git commit (the
// push, with a remote): <live>/.otm-git-pending marks an admission under
// way, and the next writer puts a store it finds marked back at HEAD (at the
// remote's head, with a remote), so a writer killed at any point leaves
// nothing half-done and the source, not yet marked merged, is offered again
// by a rerun.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "admission/commit_types.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "git/work_tree.hpp"
#include "json/value.hpp"

namespace otm::admission {

struct LiveGitOptions {
  std::optional<std::string> remote; // push each admission to this remote
  git::Signature author{"otm-wiki-gate", "otm-wiki-gate@localhost"};
  int push_attempts = 10;
  int backoff_initial_ms = 50;
  int backoff_max_ms = 2000;
  bool flush = true; // libgit2 flushes what it writes (git::set_flush_writes)
};

// The git-backed store's settings, in the settings table (config/settings.hpp:
// the flag wins over the environment, an empty variable counts as unset), for
// a tool to register:
//   OTM_LIVE_REMOTE         --remote NAME
//   OTM_LIVE_AUTHOR         --author 'NAME <EMAIL>'
//   OTM_LIVE_PUSH_ATTEMPTS  --push-attempts N
const std::vector<config::Setting> &live_git_settings();
// Those settings over their defaults, the configuration's `live_git` object
// (author, push_attempts, backoff_initial_ms, backoff_max_ms, flush). Throws
// a Usage Error for an author that is not "Name <email>" or a bad number.
LiveGitOptions live_git_options(const config::Settings &settings, const config::Config &cfg);

// The files of a git-backed store that are never committed (its journal,
// the pending mark, temporary files of atomic writes), as info/exclude
// patterns.
const std::vector<std::string> &never_committed_patterns();

class GitStore {
public:
  // The git-backed view of `live_root`, or nullopt when the store is not
  // git-backed: it is not inside a git work tree, or it is inside one
  // without being its root and without a tracked records/index.json (a
  // store copied into an unrelated checkout, such as a build directory,
  // is not made into commits of that checkout).
  static std::optional<GitStore> open(const std::filesystem::path &live_root, const LiveGitOptions &options);

  // Refuses (a Refused Error naming them) attributes of the store's
  // repository that would make a checkout write the store's files with
  // other bytes than its commits hold (`* text eol=crlf`: a fresh clone's
  // journal and records would not be what otm wrote); with a remote on
  // this machine, refuses one whose pre-receive or update hook otm's push
  // would not run (notes() lists the other hooks it does not run). Call
  // before anything reads the store.
  void refuse_hostile_setup();
  // Warnings for stderr ("note: ..." lines).
  const std::string &notes() const { return notes_; }

  // Under the exclusive lock, after recover_interrupted_commit: puts back
  // an admission a killed writer left (the pending mark), or refuses a
  // store with uncommitted changes in records/ or conflicts/ (they are not
  // otm's to commit or discard); then marks this admission as under way.
  void begin();
  // Before each attempt, with a remote: fetches the remote's branch and
  // resets the store to it (on the first attempt refusing local commits
  // the remote lacks, unless a killed writer left them).
  void sync();
  // Commits exactly `changed` (paths relative to the live root: written, or
  // removed when absent) with `message`; returns the commit id.
  std::string commit_paths(const std::vector<std::string> &changed, const std::string &message);
  bool pushes() const { return options_.remote.has_value(); }
  const std::string &remote() const { return *options_.remote; }
  const std::string &branch() const { return branch_; }
  git::PushResult push();
  // Sleeps before attempt `attempt` + 1 (full jitter, exponential, capped).
  void backoff(int attempt) const;
  int attempts() const { return options_.push_attempts; }
  // The admission is complete: the pending mark goes.
  void finish();
  // The admission failed: the store goes back to HEAD as it was before it
  // (the remote's head, with a remote) and the pending mark goes. Never
  // throws; when it cannot, the mark stays and the next writer does it.
  // Returns what the store was put back at, or why it could not be.
  std::string abandon() noexcept;

private:
  GitStore(git::WorkTree tree, std::filesystem::path live_root, LiveGitOptions options);
  std::vector<std::string> store_prefixes() const;
  std::filesystem::path pending_file() const;
  void pause_for_test(const std::string &point) const;

  git::WorkTree tree_;
  std::filesystem::path live_root_;
  std::string live_rel_; // the store's directory inside the work tree ("" at its root)
  LiveGitOptions options_;
  std::string branch_;
  std::optional<std::string> base_; // what abandon() resets to
  // The remote's branch as the last sync saw it (nullopt: absent): the
  // push's lease.
  std::optional<std::string> remote_seen_;
  std::string notes_;
  std::vector<std::string> attribute_probes() const;
  void refuse_attributes(const std::optional<std::string> &commit) const;
  bool recovering_ = false;
  bool synced_once_ = false;
};

// The commit message of an admission: "otm: <action> <id>", the target
// for a confirm or a conflict, then the files and where the record came
// from.
std::string admission_commit_message(const Outcome &outcome, const json::Value &record, const std::string &decision);

} // namespace otm::admission
