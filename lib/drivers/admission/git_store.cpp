#include "admission/git_store.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include "admission/batch_log.hpp"
#include "io/file.hpp"
#include "store/record_view.hpp"
#include "workspace/layout.hpp"

namespace otm::admission {

namespace fs = std::filesystem;

namespace {

constexpr const char *kPendingName = ".otm-git-pending";

// A whole number in [lo, hi], else a Usage Error naming `what`.
int whole(const std::string &text, int lo, int hi, const std::string &what) {
  char *end = nullptr;
  long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < lo || n > hi)
    throw Error(ErrorKind::Usage, what + " must be an integer from " + std::to_string(lo) + " to " +
                                      std::to_string(hi) + ", not '" + text + "'");
  return static_cast<int>(n);
}

int config_number(const json::Value &obj, const char *key, int fallback, int lo, const config::Config &cfg) {
  const json::Value *v = obj.find(key);
  if (!v) return fallback;
  auto n = v->as_number();
  // Range first: converting an out-of-range double to an integer is undefined.
  if (!n || *n < lo || *n > 1000000 || *n != static_cast<double>(static_cast<int>(*n)))
    throw Error(ErrorKind::Usage, cfg.source_name() + ": live_git." + key + " must be an integer from " +
                                      std::to_string(lo) + " to 1000000");
  return static_cast<int>(*n);
}

} // namespace

const std::vector<config::Setting> &live_git_settings() {
  static const std::vector<config::Setting> which = {config::Setting::LiveRemote, config::Setting::LiveAuthor,
                                                     config::Setting::LivePushAttempts};
  return which;
}

LiveGitOptions live_git_options(const config::Settings &settings, const config::Config &cfg) {
  LiveGitOptions o;
  const json::Value &data = cfg.data().get("live_git");
  if (!data.is_null() && !data.is_object())
    throw Error(ErrorKind::Usage, cfg.source_name() + ": live_git must be an object");
  std::string author = data.string_or("author", "otm-wiki-gate <otm-wiki-gate@localhost>");
  if (auto a = settings.get(config::Setting::LiveAuthor)) author = *a;
  auto sig = git::parse_signature(author);
  if (!sig)
    throw Error(ErrorKind::Usage, "the live store's commit author must be 'Name <email>', not '" + author +
                                      "' (--author / OTM_LIVE_AUTHOR, or live_git.author in " + cfg.source_name() +
                                      ")");
  o.author = *sig;
  o.remote = settings.get(config::Setting::LiveRemote);
  o.push_attempts = config_number(data, "push_attempts", o.push_attempts, 1, cfg);
  if (auto n = settings.get(config::Setting::LivePushAttempts))
    o.push_attempts = whole(*n, 1, 1000000, "--push-attempts / OTM_LIVE_PUSH_ATTEMPTS");
  o.backoff_initial_ms = config_number(data, "backoff_initial_ms", o.backoff_initial_ms, 0, cfg);
  o.backoff_max_ms = config_number(data, "backoff_max_ms", o.backoff_max_ms, 0, cfg);
  if (const json::Value *f = data.find("flush")) {
    if (!f->is_bool()) throw Error(ErrorKind::Usage, cfg.source_name() + ": live_git.flush must be true or false");
    o.flush = *f->as_bool();
  }
  return o;
}

const std::vector<std::string> &never_committed_patterns() {
  // .otm-commit (store/pending_commit.hpp) and its temporary file, a
  // batch's log (batch_log.hpp), this file's pending mark, and the
  // temporary siblings of io::write_file_atomic.
  // The keys index (store/index_keys.hpp) is a cache derived from
  // records/index.json, rebuilt after a checkout.
  static const std::vector<std::string> patterns = {".otm-commit", ".otm-commit.tmp.*", BatchLog::kFileName,
                                                    kPendingName,  ".*.tmp.*",          workspace::kKeysFileName};
  return patterns;
}

GitStore::GitStore(git::WorkTree tree, fs::path live_root, LiveGitOptions options)
    : tree_(std::move(tree)), live_root_(std::move(live_root)), options_(std::move(options)) {
  live_rel_ = tree_.relative(live_root_);
}

std::optional<GitStore> GitStore::open(const fs::path &live_root, const LiveGitOptions &options) {
  git::set_flush_writes(options.flush);
  std::string refused;
  auto tree = git::WorkTree::discover(live_root, &refused);
  if (!tree) {
    if (options.remote)
      throw Error(ErrorKind::Usage, "--remote / OTM_LIVE_REMOTE " + *options.remote + ": the live store " +
                                        live_root.string() +
                                        (refused.empty() ? " is not in a git work tree (clone the shared store's "
                                                           "repository and pass the clone as --live)"
                                                         : " is in a repository git refuses to open: " + refused));
    return std::nullopt;
  }
  std::string rel = tree->relative(live_root);
  if (!rel.empty() && !tree->tracked(rel + "/" + workspace::kIndexRelpath)) {
    if (options.remote)
      throw Error(ErrorKind::Usage, "--remote / OTM_LIVE_REMOTE " + *options.remote + ": the live store " +
                                        live_root.string() + " is inside the work tree " + tree->root().string() +
                                        " but not its root, and its records/index.json is not tracked there");
    return std::nullopt;
  }
  return GitStore(std::move(*tree), live_root, options);
}

std::vector<std::string> GitStore::store_prefixes() const {
  std::string p = live_rel_.empty() ? "" : live_rel_ + "/";
  return {p + workspace::kRecordsDirName, p + "conflicts"};
}

fs::path GitStore::pending_file() const { return live_root_ / kPendingName; }

std::vector<std::string> GitStore::attribute_probes() const {
  std::string p = live_rel_.empty() ? "" : live_rel_ + "/";
  // The index, its journal, a record at the layout's depth, a conflict.
  return {p + workspace::kIndexRelpath, p + workspace::kJournalRelpath,
          p + workspace::kRecordsDirName + "/strategy/vendor/arch/dsl/family/record.json", p + "conflicts/c.json"};
}

void GitStore::refuse_attributes(const std::optional<std::string> &commit) const {
  auto found = tree_.rewriting_attributes(attribute_probes(), commit);
  if (found.empty()) return;
  std::string list;
  for (const auto &f : found) list += (list.empty() ? "" : "; ") + f;
  throw Error(ErrorKind::Refused,
              tree_.root().string() + ": the live store's git attributes rewrite its files on checkout (" + list +
                  (commit ? ", in " + *options_.remote + "/" + branch_ + " " + commit->substr(0, 12) : std::string()) +
                  "): a clone would not hold the bytes otm wrote (a journal read as damaged, records that differ "
                  "from their commits). otm refuses such a store; remove those attributes from the store's "
                  ".gitattributes (or set `* -text` for it) and from info/attributes, then admit again");
}

void GitStore::refuse_hostile_setup() {
  refuse_attributes(std::nullopt);
  if (!options_.remote) return;
  std::string gating, other;
  for (const auto &h : tree_.local_remote_hooks(*options_.remote)) {
    bool gates = h == "pre-receive" || h == "update" || h == "proc-receive" || h == "reference-transaction";
    std::string &list = gates ? gating : other;
    list += (list.empty() ? "" : ", ") + h;
  }
  if (!gating.empty())
    throw Error(ErrorKind::Refused,
                "--remote " + *options_.remote +
                    ": the remote is a repository on this machine with server-side hooks (" + gating +
                    ") that otm's push would not run: it writes a local remote's objects and moves its branch itself, "
                    "without receive-pack (docs/scale-out.md). Push through ssh, where the server runs them, or move "
                    "the checks out of the hooks, then admit again");
  if (!other.empty())
    notes_ += "note: --remote " + *options_.remote + ": the remote's hooks " + other +
              " do not run on otm's push to a local path (docs/scale-out.md)\n";
}

void GitStore::begin() {
  branch_ = tree_.branch();
  tree_.ensure_excluded(never_committed_patterns());
  base_ = tree_.head();
  if (!base_)
    throw Error(ErrorKind::Refused, tree_.root().string() +
                                        ": the live store's repository has no commit yet; commit the store as it is "
                                        "first (git add records && git commit), then admit");
  recovering_ = io::is_regular_file(pending_file());
  if (recovering_) {
    // A writer was killed inside an admission: whatever it left in the
    // store's files is not committed (or not pushed) and was never marked
    // merged. Without a remote, HEAD is the last complete admission; with
    // one, sync() resets to the remote's head.
    if (!options_.remote) tree_.restore(store_prefixes());
  } else if (auto changed = tree_.changed_paths(store_prefixes()); !changed.empty()) {
    std::string list;
    for (std::size_t i = 0; i < changed.size() && i < 5; ++i) list += (i ? ", " : "") + changed[i];
    if (changed.size() > 5) list += " and " + std::to_string(changed.size() - 5) + " more";
    throw Error(ErrorKind::Refused, live_root_.string() + ": the git-backed live store has uncommitted changes (" +
                                        list +
                                        "); otm commits only its own admissions: commit or discard them (git -C " +
                                        tree_.root().string() + " status), then admit again");
  }
  io::write_file_atomic(pending_file(), "{\"pid\": " + std::to_string(::getpid()) + "}\n", io::FileClass::Live);
}

void GitStore::sync() {
  if (!options_.remote) return;
  auto remote_head = tree_.fetch(*options_.remote, branch_);
  bool first = !synced_once_;
  synced_once_ = true;
  remote_seen_ = remote_head;
  // What the remote's head would check out, before it is checked out.
  if (remote_head) refuse_attributes(remote_head);
  if (!remote_head) {
    // A new, empty remote: the first push creates its branch; the local
    // branch is the base (a killed writer's leftovers put back first).
    if (!first && base_)
      tree_.reset_hard(*base_, store_prefixes());
    else if (recovering_)
      tree_.restore(store_prefixes());
    return;
  }
  auto head = tree_.head();
  if (first && !recovering_ && head && !tree_.is_ancestor(*head, *remote_head))
    throw Error(ErrorKind::Refused,
                tree_.root().string() + ": the store's branch " + branch_ + " has commits that " + *options_.remote +
                    "/" + branch_ +
                    " lacks (never pushed, e.g. admitted without --remote): push them or drop them (git -C " +
                    tree_.root().string() + " log " + *options_.remote + "/" + branch_ + ".." + branch_ +
                    "), then admit again");
  base_ = *remote_head;
  if (head != remote_head || !first || recovering_) tree_.reset_hard(*remote_head, store_prefixes());
}

std::string GitStore::commit_paths(const std::vector<std::string> &changed, const std::string &message) {
  std::vector<std::string> paths;
  for (const auto &c : changed) {
    std::string rel = fs::path(c).lexically_normal().generic_string();
    paths.push_back(live_rel_.empty() ? rel : live_rel_ + "/" + rel);
  }
  return tree_.commit_files(paths, message, options_.author);
}

git::PushResult GitStore::push() {
  pause_for_test("before-push");
  // The index changes by a few entries per admission: a local remote keeps
  // its versions as deltas of one another (docs/scale-out.md).
  std::string index = (live_rel_.empty() ? "" : live_rel_ + "/") + workspace::kIndexRelpath;
  auto result = tree_.push(
      *options_.remote, branch_, remote_seen_, [this] { pause_for_test("before-update"); }, index);
  if (result.pushed) pause_for_test("after-update");
  return result;
}

void GitStore::backoff(int attempt) const {
  // Full jitter: a uniform wait up to a cap that doubles per attempt, so
  // writers that collided spread out instead of colliding again.
  long long cap = options_.backoff_initial_ms;
  for (int i = 1; i < attempt && cap < options_.backoff_max_ms; ++i) cap *= 2;
  cap = std::min<long long>(cap, options_.backoff_max_ms);
  if (cap <= 0) return;
  static thread_local std::mt19937_64 rng(std::random_device{}() ^ static_cast<unsigned long long>(::getpid()));
  std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<long long>(0, cap)(rng)));
}

void GitStore::finish() {
  if (::unlink(pending_file().c_str()) == 0) io::fsync_directory(live_root_);
}

std::string GitStore::abandon() noexcept {
  try {
    // Without a remote the branch moved only if the commit was made, and
    // then it is undone; otherwise only the store's files need putting back.
    if (base_ && (options_.remote || tree_.head() != base_))
      tree_.reset_hard(*base_, store_prefixes());
    else
      tree_.restore(store_prefixes());
    finish();
    return "the store's files are back at " + (base_ ? base_->substr(0, 12) : std::string("HEAD"));
  } catch (const std::exception &e) {
    return std::string("putting the store back failed too (") + e.what() +
           "); the next admission puts it back before anything else";
  }
}

// A test-only pause (docs/scale-out.md, "Testing"): with
// OTM_TEST_PUSH_PAUSE=<point>:<file>, reaching <point> creates <file> and
// waits until the test removes it (at most a minute; once per process), so a test can
// SIGKILL the push, or let another writer push, at an exact instant.
void GitStore::pause_for_test(const std::string &point) const {
  const char *env = std::getenv("OTM_TEST_PUSH_PAUSE");
  if (!env) return;
  std::string spec = env;
  auto colon = spec.find(':');
  static bool paused = false; // once per process: a retry after the pause runs through
  if (paused || colon == std::string::npos || spec.substr(0, colon) != point) return;
  paused = true;
  fs::path file = spec.substr(colon + 1);
  io::write_file_atomic(file, point + "\n", io::FileClass::Live);
  for (int i = 0; i < 6000 && io::is_regular_file(file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

std::string admission_commit_message(const Outcome &outcome, const json::Value &record, const std::string &decision) {
  // A compaction admits no record: "otm: compact".
  std::string msg = "otm: " + outcome.action;
  if (record.find("id") || outcome.action != "compact")
    msg += " " + store::RecordView::shown(record).id.value_or("unknown");
  if (!outcome.target.empty()) msg += " (target " + outcome.target + ")";
  msg += "\n\n";
  if (!decision.empty()) msg += "decided by the auto policy: " + decision + "\n";
  for (const auto &c : outcome.changed) msg += "changed: " + c + "\n";
  const auto &raw = record.get("evidence").get("raw");
  std::string from;
  for (const char *k : {"source_repo", "version", "git_commit"})
    if (auto v = raw.get(k).as_string(); v && !v->empty()) from += (from.empty() ? "" : " ") + *v;
  if (!from.empty()) msg += "from: " + from + "\n";
  return msg;
}

} // namespace otm::admission
