// The git-backed live store (docs/scale-out.md): separate otm-wiki-gate
// processes admitting into clones of one bare remote. The git CLI is used
// here only to set repositories up and to look at them; the product uses
// libgit2.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include "admission/git_store.hpp"
#include "admission/merged_marker.hpp"
#include "admission_fixtures.hpp"
#include "cmdline/options.hpp"
#include "store_checker.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

namespace {

struct Run {
  int rc = -1;
  std::string out;
};

// A shell command's exit code and its stdout and stderr together.
Run shell(const std::string &cmd) {
  Run r;
  FILE *p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string q(const fs::path &p) { return "'" + p.string() + "'"; }

std::string git_cli(const fs::path &repo, const std::string &args) {
  auto r = shell("git -C " + q(repo) + " -c user.name=seed -c user.email=seed@example.org " + args);
  INFO("git " << args << ": " << r.out);
  REQUIRE(r.rc == 0);
  return r.out;
}

bool have_git() { return shell("git --version").rc == 0; }

#define REQUIRE_GIT()                                                                                                  \
  do {                                                                                                                 \
    if (!have_git()) {                                                                                                 \
      std::cout << "OTM-SKIP: the git CLI is not installed (the tests use it to set repositories up)\n";               \
      return;                                                                                                          \
    }                                                                                                                  \
  } while (0)

// Starts a process with `extra` added to the environment, its output in
// `log`; returns its pid.
pid_t spawn_with(const std::vector<std::string> &args, const std::vector<std::string> &extra, const fs::path &log) {
  std::vector<char *> argv;
  for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_store;
  for (char **e = environ; *e; ++e) env_store.emplace_back(*e);
  for (const auto &x : extra) env_store.push_back(x);
  std::vector<char *> envp;
  for (auto &e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

// The configuration the tests admit with: libgit2 does not flush (the
// tests check consistency, not power-loss durability, and the flushes are
// most of an admission's time on a loaded disk) and rejected pushes back
// off briefly (live_git, docs/configuration.md).
std::string g_config;
void fast_config(const fs::path &dir) {
  g_config = (dir / "otm-test-config.json").string();
  io::write_file_atomic(g_config, R"({"live_git": {"flush": false, "backoff_initial_ms": 5, "backoff_max_ms": 100}})"
                                  "\n");
}

std::vector<std::string> admit(const std::string &action, const fs::path &src, const fs::path &live,
                               const std::vector<std::string> &more = {}) {
  std::vector<std::string> args{bin("otm-wiki-gate"), "commit",   action,  src.string(), "--live",
                                live.string(),        "--config", g_config};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

json::Value nth_record(const std::string &stem, int i, int s = 1) {
  return strategy_record(nth_id(stem, i, s), "blackwell|triton|toy-op|" + stem + "_" + std::to_string(i) + "|operator");
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    out.push_back(text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

// What `git status --porcelain --ignored` shows besides the keys index, the
// one ignored file a store keeps by design (a cache, store/index_keys.hpp).
std::string leftovers(const fs::path &repo) {
  std::string out;
  for (const auto &l : lines(git_cli(repo, "status --porcelain --ignored")))
    if (l.find(".otm-index-keys") == std::string::npos) out += l + "\n";
  return out;
}

// A seeded store committed in a work tree `dir/seed`, a bare clone of it
// `dir/remote.git`, and `clones` clones of that.
struct Remote {
  fs::path seed, bare;
  std::vector<fs::path> clones;
};

Remote make_remote(const fs::path &dir, int seeded, int clones) {
  Remote r;
  r.seed = dir / "seed";
  seed_live_store(r.seed, seeded);
  git_cli(r.seed, "init -q -b main");
  git_cli(r.seed, "add -A");
  git_cli(r.seed, "commit -q -m 'the store as it was'");
  r.bare = dir / "remote.git";
  REQUIRE(shell("git clone -q --bare " + q(r.seed) + " " + q(r.bare)).rc == 0);
  for (int i = 0; i < clones; ++i) {
    r.clones.push_back(dir / ("clone" + std::to_string(i)));
    REQUIRE(shell("git clone -q " + q(r.bare) + " " + q(r.clones.back())).rc == 0);
  }
  return r;
}

int commit_count(const fs::path &repo, const std::string &rev = "HEAD") {
  return std::stoi(git_cli(repo, "rev-list --count " + rev));
}

// The remote's branch as a fresh clone, for checking what it holds.
fs::path fresh_clone(const fs::path &bare, const fs::path &where) {
  REQUIRE(shell("git clone -q " + q(bare) + " " + q(where)).rc == 0);
  return where;
}

} // namespace

TEST_CASE("git-backed store: each admission is one commit of the files it wrote", "[admission][git]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  git_cli(live, "init -q -b main");
  git_cli(live, "add -A");
  git_cli(live, "commit -q -m seed");
  fs::path log = tmp.path / "log";

  auto rec = nth_record("git", 0);
  std::string rel = "records/" + record::record_relpath(rec).generic_string();
  REQUIRE(run(admit("insert", stage(tmp.path, rec), live)) == 0);
  CHECK(commit_count(live) == 2);
  CHECK(git_cli(live, "log -1 '--format=%an|%ae|%cn|%s'") ==
        "otm-wiki-gate|otm-wiki-gate@localhost|otm-wiki-gate|otm: insert " + rec.string_or("id") + "\n");
  // The record and the index every reader reads, current: no journal.
  CHECK(git_cli(live, "show --name-only --format= HEAD") == "records/index.json\n" + rel + "\n");
  CHECK(leftovers(live) == ""); // nothing left over, not even ignored files
  CHECK(git_cli(live, "cat-file -p HEAD").find("from: toy-trace v3 abc1234") != std::string::npos);
  CHECK(store_disagreements(live).empty());

  // A confirm commits the target (and the index when it re-ranks); the same
  // confirm again changes nothing and makes no commit.
  fs::path echo = stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.echo-s01"));
  REQUIRE(run(admit("confirm", echo, live, {"--target", rec.string_or("id"), "--author", "Ada L <ada@example.org>"})) ==
          0);
  CHECK(commit_count(live) == 3);
  CHECK(git_cli(live, "log -1 '--format=%an|%ae|%s'") == "Ada L|ada@example.org|otm: confirm "
                                                         "nvidia.b200.triton.toy-op.echo-s01 (target " +
                                                             rec.string_or("id") + ")\n");
  CHECK(git_cli(live, "show --name-only --format= HEAD").find(rel) != std::string::npos);
  REQUIRE(run(admit("confirm", echo, live, {"--target", rec.string_or("id")})) == 0);
  CHECK(commit_count(live) == 3);

  // A conflict commits its queue file only.
  auto anti = strategy_record("nvidia.b200.triton.toy-op.slower-s01", "k", -7.5);
  REQUIRE(run(admit("conflict", stage(tmp.path, anti), live, {"--target", rec.string_or("id")})) == 0);
  auto files = lines(git_cli(live, "show --name-only --format= HEAD"));
  REQUIRE(files.size() == 1);
  CHECK(files[0].rfind("conflicts/", 0) == 0);
  CHECK(git_cli(live, "status --porcelain") == "");

  // A refused insert makes no commit; uncommitted changes in records/ are
  // refused (exit 2) and left exactly as they were.
  // (the confirm changed the live record, so the original is refused)
  CHECK(run(admit("insert", stage(tmp.path / "dup", nth_record("git", 0)), live)) == 1);
  CHECK(commit_count(live) == 4);
  io::write_file_atomic(live / "records" / "note.txt", "a human's edit\n");
  auto blocked = nth_record("git", 1);
  CHECK(wait_for(spawn_with(admit("insert", stage(tmp.path, blocked), live), {}, log)) == 2);
  CHECK_THAT(io::read_file(log), Catch::Contains("uncommitted changes (records/note.txt)"));
  CHECK(io::read_file(live / "records" / "note.txt") == "a human's edit\n");
  CHECK(commit_count(live) == 4);
  fs::remove(live / "records" / "note.txt");

  // A writer killed between the store's commit and the git commit leaves
  // the pending mark: the next writer puts the store back at HEAD first.
  io::write_file_atomic(live / ".otm-git-pending", "{}\n");
  io::write_file_atomic(live / "records" / "strategy" / "stray.json", "{}\n");
  io::write_file_atomic(live / "records" / "index.json", "{}\n");
  REQUIRE(run(admit("insert", stage(tmp.path, blocked), live)) == 0);
  CHECK(commit_count(live) == 5);
  CHECK_FALSE(fs::exists(live / "records" / "strategy" / "stray.json"));
  CHECK_FALSE(fs::exists(live / ".otm-git-pending"));
  CHECK(leftovers(live) == "");
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());

  // The journal is crash safety inside one command: no commit ever held
  // it, and `compact` finds nothing to fold (and commits nothing).
  CHECK(git_cli(live, "log --format= --name-only | grep -c index.journal || true") == "0\n");
  CHECK_FALSE(fs::exists(live / "records" / "index.journal"));
  REQUIRE(run({bin("otm-wiki-gate"), "compact", "--live", live.string(), "--config", g_config}) == 0);
  CHECK(commit_count(live) == 5);
  CHECK(leftovers(live) == "");
  CHECK(store_disagreements(live).empty());
}

TEST_CASE("git-backed store: a store copied into an unrelated work tree is not committed to", "[admission][git]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  fs::path repo = tmp.path / "checkout";
  fs::create_directories(repo);
  git_cli(repo, "init -q -b main");
  io::write_file_atomic(repo / "README", "not a store\n");
  git_cli(repo, "add README");
  git_cli(repo, "commit -q -m readme");
  fs::path live = repo / "build" / "live";
  seed_live_store(live, 1);
  REQUIRE(run(admit("insert", stage(tmp.path, nth_record("copy", 0)), live)) == 0);
  CHECK(commit_count(repo) == 1);
  CHECK(store_disagreements(live).empty());
  // --remote on such a store is refused rather than silently not pushing.
  CHECK(run(admit("insert", stage(tmp.path, nth_record("copy", 1)), live, {"--remote", "origin"})) == 2);
}

namespace {

// The issue's scale: 4 writers of 25 records each. The sanitizer build (a
// Debug build, an order of magnitude slower per process) runs 4 of 8, for
// the CI budget.
#ifdef OTM_SANITIZED_BUILD
constexpr int kWriters = 4, kEach = 8;
#else
constexpr int kWriters = 4, kEach = 25;
#endif

std::string writer_stem(int w) { return "w" + std::to_string(w); }

// Writer w's records (generation s: 1 the first mining, 2 the same
// knowledge mined again under new ids), staged in dir/src<s>/<w>/.
std::vector<std::vector<fs::path>> stage_generation(const fs::path &dir, int s) {
  std::vector<std::vector<fs::path>> srcs(kWriters);
  for (int w = 0; w < kWriters; ++w)
    for (int i = 0; i < kEach; ++i)
      srcs[w].push_back(stage(dir / ("src" + std::to_string(s)) / std::to_string(w), nth_record(writer_stem(w), i, s)));
  return srcs;
}

// All writers at once, each admitting its records one process after the
// other into its own clone; returns the seconds taken.
double run_writers(const fs::path &dir, const Remote &remote, const std::vector<std::vector<fs::path>> &srcs) {
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  std::vector<int> failures(kWriters, 0);
  for (int w = 0; w < kWriters; ++w)
    threads.emplace_back([&, w] {
      fs::path log = dir / ("writer" + std::to_string(w) + ".log");
      for (const auto &src : srcs[w])
        if (wait_for(spawn_with(admit("auto", src, remote.clones[w], {"--remote", "origin", "--push-attempts", "500"}),
                                {}, log)) != 0)
          ++failures[w];
    });
  for (auto &t : threads) t.join();
  for (int w = 0; w < kWriters; ++w) {
    INFO("writer " << w << ": " << io::read_file(dir / ("writer" + std::to_string(w) + ".log")));
    CHECK(failures[w] == 0);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What the store holds after the first mining: the seed and every writer's
// records, indexed (as the inserts leave it; built in process).
void seed_first_generation(const fs::path &root) {
  seed_live_store(root, 2);
  json::Value index = json::parse_file(root / "records" / "index.json");
  for (int w = 0; w < kWriters; ++w)
    for (int i = 0; i < kEach; ++i) {
      auto r = nth_record(writer_stem(w), i, 1);
      auto rel = record::record_relpath(r);
      io::write_file_atomic(root / "records" / rel, json::to_pretty(r), io::FileClass::Scratch);
      index = admission::index_with_entry(index, admission::live_index_entry(r, "records/" + rel.generic_string()));
    }
  io::write_file_atomic(root / "records" / "index.json", json::to_pretty(index));
}

} // namespace

TEST_CASE("git-backed store: 4 writers in 4 clones of one bare remote insert 100 records each once",
          "[admission][git]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  auto t0 = std::chrono::steady_clock::now();
  auto remote = make_remote(tmp.path, 2, kWriters);
  auto srcs = stage_generation(tmp.path, 1);
  double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double secs = run_writers(tmp.path, remote, srcs);
  const int n = kWriters * kEach;
  fs::path check = fresh_clone(remote.bare, tmp.path / "check");
  CHECK(commit_count(check) == 1 + n);
  CHECK(store::load_records(check).size() == static_cast<std::size_t>(2 + n));
  CHECK(store_disagreements(check).empty());
  CHECK(run({bin("otm-validate"), "--store-gates", check.string()}) == 0);
  // One commit per record: every subject once, each commit the record and
  // the index.
  std::map<std::string, int> subjects;
  for (const auto &s : lines(git_cli(check, "log --format=%s HEAD~" + std::to_string(n) + "..HEAD"))) ++subjects[s];
  CHECK(subjects.size() == static_cast<std::size_t>(n));
  for (int w = 0; w < kWriters; ++w)
    for (int i = 0; i < kEach; ++i) CHECK(subjects["otm: insert " + nth_id(writer_stem(w), i)] == 1);
  CHECK(git_cli(check, "log --format= --name-only HEAD~" + std::to_string(n) + "..HEAD | grep -c index.json") ==
        std::to_string(n) + "\n");
  // A fresh clone of the remote is a store the store's own checker passes.
  CHECK_FALSE(fs::exists(check / "records" / "index.journal"));
  CHECK_STORE_CHECKER_PASSES_IF_HERE(check);
  for (const auto &c : remote.clones) CHECK(leftovers(c) == "");
  std::cout << "git-backed store: " << n << " inserts by " << kWriters << " writers in " << secs << " s (setup "
            << setup << " s)\n";
}

TEST_CASE("git-backed store: the same 100 mined again by 4 writers are 100 confirms counted once each",
          "[admission][git]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  // The remote as the inserts above leave it (its records built in process).
  Remote remote;
  remote.seed = tmp.path / "seed";
  seed_first_generation(remote.seed);
  git_cli(remote.seed, "init -q -b main");
  git_cli(remote.seed, "add -A");
  git_cli(remote.seed, "commit -q -m 'the first mining'");
  remote.bare = tmp.path / "remote.git";
  REQUIRE(shell("git clone -q --bare " + q(remote.seed) + " " + q(remote.bare)).rc == 0);
  for (int w = 0; w < kWriters; ++w)
    remote.clones.push_back(fresh_clone(remote.bare, tmp.path / ("clone" + std::to_string(w))));

  auto again = stage_generation(tmp.path, 2);
  double secs = run_writers(tmp.path, remote, again);
  const int n = kWriters * kEach;
  fs::path check = fresh_clone(remote.bare, tmp.path / "check");
  CHECK(commit_count(check) == 1 + n);
  auto records = store::load_records(check);
  CHECK(records.size() == static_cast<std::size_t>(2 + n));
  int confirmed_once = 0;
  for (const auto &r : records) {
    std::string id = r.record.string_or("id");
    if (id.find(".seed-op.") != std::string::npos) continue;
    const auto &track = r.record.get("worth").get("track");
    std::string rediscovery = id.substr(0, id.size() - 3) + "s02";
    if (track.get("counters").get("verified_effective").as_int() == 1 &&
        track.get("confirm_keys") == json::Value::strings({id + ":" + rediscovery}))
      ++confirmed_once;
  }
  CHECK(confirmed_once == n);
  for (const auto &s : lines(git_cli(check, "log --format=%s HEAD~" + std::to_string(n) + "..HEAD")))
    CHECK(s.rfind("otm: confirm ", 0) == 0);
  CHECK(store_disagreements(check).empty());
  CHECK(run({bin("otm-validate"), "--store-gates", check.string()}) == 0);
  // Offered once more, a rediscovery is already counted and a first-mining
  // record is refused (its id is taken by the confirmed, so different,
  // record: the insert policy): neither makes a commit.
  for (int i = 0; i < 3; ++i) {
    CHECK(run(admit("auto", again[1][i], remote.clones[1], {"--remote", "origin"})) == 0);
    auto first = stage(tmp.path / "first", nth_record(writer_stem(0), i, 1));
    CHECK(run(admit("auto", first, remote.clones[0], {"--remote", "origin"})) == 1);
  }
  CHECK(commit_count(remote.bare, "main") == 1 + n);
  for (const auto &c : remote.clones) CHECK(leftovers(c) == "");
  std::cout << "git-backed store: " << n << " confirms by " << kWriters << " writers in " << secs << " s\n";
}

TEST_CASE("git-backed store: a push killed with SIGKILL loses and duplicates nothing after a retry",
          "[admission][git]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  auto remote = make_remote(tmp.path, 2, 2);
  const fs::path a = remote.clones[0], b = remote.clones[1];
  fs::path pause = tmp.path / "paused", log = tmp.path / "log";
  auto wait_paused = [&] {
    for (int i = 0; i < 3000 && !fs::exists(pause); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(fs::exists(pause));
  };
  const std::string env_remote = "OTM_LIVE_REMOTE=origin";

  SECTION("killed after sending its objects, before moving the remote's branch") {
    auto rec = nth_record("kill", 0);
    fs::path src = stage(tmp.path, rec);
    pid_t pid =
        spawn_with(admit("insert", src, a), {env_remote, "OTM_TEST_PUSH_PAUSE=before-update:" + pause.string()}, log);
    wait_paused();
    ::kill(pid, SIGKILL);
    CHECK(wait_for(pid) == 128 + SIGKILL);
    CHECK(commit_count(remote.bare, "main") == 1); // the remote did not move
    CHECK_FALSE(store::read_merged_marker(src));
    // Meanwhile another machine admits.
    REQUIRE(run(admit("insert", stage(tmp.path, nth_record("other", 0)), b, {"--remote", "origin"})) == 0);
    // The retry puts the clone back at the remote's head and admits again.
    REQUIRE(wait_for(spawn_with(admit("insert", src, a), {env_remote}, log)) == 0);
    CHECK(store::read_merged_marker(src));
  }
  SECTION("killed after moving the remote's branch, before its own bookkeeping") {
    auto rec = nth_record("kill", 1);
    fs::path src = stage(tmp.path, rec);
    pid_t pid =
        spawn_with(admit("insert", src, a), {env_remote, "OTM_TEST_PUSH_PAUSE=after-update:" + pause.string()}, log);
    wait_paused();
    ::kill(pid, SIGKILL);
    CHECK(wait_for(pid) == 128 + SIGKILL);
    CHECK(commit_count(remote.bare, "main") == 2); // pushed
    CHECK_FALSE(store::read_merged_marker(src));
    REQUIRE(run(admit("insert", stage(tmp.path, nth_record("other", 1)), b, {"--remote", "origin"})) == 0);
    // The retry finds the record already there: nothing new, marked merged.
    REQUIRE(wait_for(spawn_with(admit("insert", src, a), {env_remote}, log)) == 0);
    CHECK_THAT(io::read_file(log), Catch::Contains("already present and identical"));
    CHECK(store::read_merged_marker(src));
  }
  SECTION("another writer pushes while this one is between its upload and its branch update") {
    auto rec = nth_record("race", 0);
    fs::path src = stage(tmp.path, rec);
    // One attempt only: the compare-and-swap of the remote branch must
    // reject it, and it must give up with nothing half-done.
    pid_t pid = spawn_with(admit("insert", src, a, {"--push-attempts", "1"}),
                           {env_remote, "OTM_TEST_PUSH_PAUSE=before-update:" + pause.string()}, log);
    wait_paused();
    REQUIRE(run(admit("insert", stage(tmp.path, nth_record("other", 2)), b, {"--remote", "origin"})) == 0);
    fs::remove(pause);
    CHECK(wait_for(pid) == 2);
    CHECK_THAT(io::read_file(log), Catch::Contains("nothing was admitted"));
    CHECK(leftovers(a) == "");
    CHECK(git_cli(a, "rev-parse HEAD") == git_cli(a, "rev-parse origin/main"));
    CHECK(commit_count(remote.bare, "main") == 2); // the other writer's only
    CHECK_FALSE(store::read_merged_marker(src));
    // With attempts left, the same race ends in both admissions.
    pid = spawn_with(admit("insert", src, a), {env_remote, "OTM_TEST_PUSH_PAUSE=before-update:" + pause.string()}, log);
    wait_paused();
    REQUIRE(run(admit("insert", stage(tmp.path, nth_record("other", 3)), b, {"--remote", "origin"})) == 0);
    fs::remove(pause);
    CHECK(wait_for(pid) == 0);
  }
  // Whatever happened, the remote holds each record once and agrees with
  // its index, and the clones are clean.
  fs::path check = fresh_clone(remote.bare, tmp.path / "check");
  std::map<std::string, int> ids;
  for (const auto &r : store::load_records(check)) ++ids[r.record.string_or("id")];
  for (const auto &[id, n] : ids) CHECK(n == 1);
  CHECK(commit_count(check) == static_cast<int>(ids.size()) - 1); // seed commit + one per new record
  CHECK(store_disagreements(check).empty());
  CHECK(store_gate_failures(check).empty());
  for (const auto &c : remote.clones) CHECK(leftovers(c) == "");
}

namespace {

// Batches per writer of the archive-like test below: 6 (3 in the slower
// sanitizer build), or OTM_GIT_STRESS_ROUNDS for a soak run.
int stress_rounds() {
#ifdef OTM_SANITIZED_BUILD
  constexpr int kRounds = 3;
#else
  constexpr int kRounds = 6;
#endif
  const char *soak = std::getenv("OTM_GIT_STRESS_ROUNDS");
  return soak ? std::max(1, std::atoi(soak)) : kRounds;
}

} // namespace

TEST_CASE("git-backed store: writers cloning the remote while others push, as a Slurm array's tasks do, admit every "
          "batch",
          "[admission][git][stress]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  auto remote = make_remote(tmp.path, 40, 0);
  // Writer 0 keeps one clone: its leases fail and it retries from a fresh
  // sync. The others clone the remote anew for each batch, as each task of
  // an archive array does (scripts/otm-slurm-archive), while others push:
  // `git clone` of a local path copies the remote's packs as they are at
  // that instant, without checking that each commit's objects came along.
  constexpr int kStressWriters = 4, kBatch = 2;
  const int rounds = stress_rounds();
  std::vector<std::vector<fs::path>> clones(kStressWriters);
  std::vector<std::string> failed(kStressWriters);
  std::atomic<int> clone_retries{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kStressWriters; ++w)
    threads.emplace_back([&, w] {
      const fs::path log = tmp.path / ("stress" + std::to_string(w) + ".log");
      for (int r = 0; r < rounds; ++r) {
        const std::string name = "s" + std::to_string(w) + "r" + std::to_string(r);
        if (w > 0 || r == 0) {
          // Up to three tries, as scripts/otm-slurm-archive makes: a clone
          // whose copy of the packs crossed a push's replacement of the
          // version pack lacks it, and its checkout fails.
          fs::path dir = tmp.path / name;
          Run c;
          for (int t = 0; t < 3 && (c = shell("git clone -q " + q(remote.bare) + " " + q(dir))).rc != 0; ++t) {
            ++clone_retries;
            fs::remove_all(dir);
          }
          if (c.rc != 0) {
            failed[w] += name + ": git clone: " + c.out;
            continue;
          }
          clones[w].push_back(dir);
        }
        if (clones[w].empty()) continue;
        std::vector<std::string> more;
        for (int i = 1; i < kBatch; ++i) more.push_back(stage(tmp.path / "src" / name, nth_record(name, i)).string());
        more.insert(more.end(), {"--remote", "origin", "--push-attempts", "1000"});
        const fs::path first = stage(tmp.path / "src" / name, nth_record(name, 0));
        if (int rc = wait_for(spawn_with(admit("auto", first, clones[w].back(), more), {}, log)); rc != 0)
          failed[w] += name + ": otm-wiki-gate exited " + std::to_string(rc) + "\n";
      }
    });
  for (auto &t : threads) t.join();
  for (int w = 0; w < kStressWriters; ++w) {
    INFO("writer " << w << ": " << failed[w] << io::read_file(tmp.path / ("stress" + std::to_string(w) + ".log")));
    CHECK(failed[w].empty());
  }
  // Every clone holds every object of what it fetched and checked out.
  for (const auto &cs : clones)
    for (const auto &c : cs) {
      auto fsck = shell("git -C " + q(c) + " fsck --connectivity-only --no-progress");
      INFO(c << ": " << fsck.out);
      CHECK(fsck.rc == 0);
    }
  auto fsck = shell("git -C " + q(remote.bare) + " fsck --full --no-progress");
  INFO(fsck.out);
  CHECK(fsck.rc == 0);
  // The remote holds every batch once, each its own commit.
  const int n = kStressWriters * rounds;
  fs::path check = fresh_clone(remote.bare, tmp.path / "check");
  CHECK(commit_count(check) == 1 + n);
  std::map<std::string, int> ids;
  for (const auto &r : store::load_records(check)) ++ids[r.record.string_or("id")];
  CHECK(ids.size() == static_cast<std::size_t>(40 + n * kBatch));
  for (const auto &[id, k] : ids) CHECK(k == 1);
  CHECK(store_disagreements(check).empty());
  std::cout << "git-backed store: " << n << " batches by " << kStressWriters << " writers, " << clone_retries
            << " clone(s) tried again\n";
}

TEST_CASE("git-backed store: a clone holding the remote head's commit without its objects gets them from a local "
          "remote",
          "[admission][git]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  auto remote = make_remote(tmp.path, 40, 2);
  const fs::path a = remote.clones[0], b = remote.clones[1];
  REQUIRE(run(admit("insert", stage(tmp.path / "a", nth_record("a", 0)), a, {"--remote", "origin"})) == 0);
  // What `git clone` of a local path copies while that push is under way:
  // the remote's packs but its version pack (records/index.json's versions).
  const fs::path from = remote.bare / "objects" / "pack", to = b / ".git" / "objects" / "pack";
  for (const auto &e : fs::directory_iterator(from)) {
    const std::string stem = e.path().stem().string();
    if (fs::exists(remote.bare / "otm-version-packs" / stem) || fs::exists(to / e.path().filename())) continue;
    if (e.path().extension() == ".pack") fs::copy_file(e.path(), to / e.path().filename());
  }
  for (const auto &e : fs::directory_iterator(from)) {
    const std::string stem = e.path().stem().string();
    if (e.path().extension() == ".idx" && fs::exists(to / (stem + ".pack")) && !fs::exists(to / e.path().filename()))
      fs::copy_file(e.path(), to / e.path().filename());
  }
  const std::string head = git_cli(remote.bare, "rev-parse main").substr(0, 40);
  REQUIRE(shell("git -C " + q(b) + " cat-file -e " + head).rc == 0);
  REQUIRE(shell("git -C " + q(b) + " cat-file -e " + head + ":records/index.json").rc != 0);
  // libgit2's fetch asks for nothing (the clone holds the head's commit);
  // the sync copies what the commit names from the remote, then resets.
  fs::path log = tmp.path / "b.log";
  int rc = wait_for(
      spawn_with(admit("insert", stage(tmp.path / "b", nth_record("b", 0)), b, {"--remote", "origin"}), {}, log));
  INFO(io::read_file(log));
  CHECK(rc == 0);
  auto fsck = shell("git -C " + q(b) + " fsck --connectivity-only --no-progress");
  INFO(fsck.out);
  CHECK(fsck.rc == 0);
  CHECK(commit_count(remote.bare, "main") == 3);
  fs::path check = fresh_clone(remote.bare, tmp.path / "check");
  CHECK(store::load_records(check).size() == 42);
  CHECK(store_disagreements(check).empty());
  CHECK(leftovers(b) == "");
}

// The bytes in a repository's objects/pack.
static std::uintmax_t pack_bytes(const fs::path &bare) {
  std::uintmax_t n = 0;
  for (const auto &e : fs::directory_iterator(bare / "objects" / "pack"))
    if (e.is_regular_file()) n += e.file_size();
  return n;
}

TEST_CASE("git-backed store: a local remote keeps the index's versions as deltas of one another",
          "[admission][git][pack]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  // A generated store of 1,000 realistic records: an index of 2.4 MB,
  // about 350 KB compressed.
  Remote remote;
  remote.seed = tmp.path / "seed";
  REQUIRE(shell(q(bin("otm-bench-store")) + " --records 1000 " + q(remote.seed)).rc == 0);
  fs::remove(remote.seed / "records" / ".otm-index-keys");
  git_cli(remote.seed, "init -q -b main");
  git_cli(remote.seed, "add -A");
  git_cli(remote.seed, "commit -q -m 'the store as it was'");
  remote.bare = tmp.path / "remote.git";
  REQUIRE(shell("git clone -q --bare " + q(remote.seed) + " " + q(remote.bare)).rc == 0);
  const fs::path live = fresh_clone(remote.bare, tmp.path / "clone");
  auto batch = [&](const std::string &stem) {
    fs::path dir = tmp.path / stem;
    fs::create_directories(dir);
    std::vector<std::string> more;
    for (int i = 1; i < 5; ++i) more.push_back(stage(dir, nth_record(stem, i)).string());
    more.insert(more.end(), {"--remote", "origin"});
    REQUIRE(run(admit("insert", stage(dir, nth_record(stem, 0)), live, more)) == 0);
  };
  auto notes = [&] {
    std::vector<std::string> out;
    if (fs::is_directory(remote.bare / "otm-version-packs"))
      for (const auto &e : fs::directory_iterator(remote.bare / "otm-version-packs"))
        out.push_back(e.path().filename().string());
    return out;
  };
  // The first batch has no version pack to build on (the seed's index is
  // in the pack git clone wrote): its index is stored whole, in a version
  // pack of its own.
  const auto before = pack_bytes(remote.bare);
  batch("first");
  const auto after_first = pack_bytes(remote.bare);
  REQUIRE(notes().size() == 1);
  const auto whole = fs::file_size(remote.bare / "objects" / "pack" / (notes()[0] + ".pack"));
  CHECK(whole > 200000); // the index, compressed
  CHECK(after_first - before > whole);
  // The next ones: the new index whole, the older ones as deltas, the
  // previous version pack deleted; the remote grows by the records and a
  // delta, not by another index.
  for (const char *stem : {"second", "third"}) {
    INFO(stem);
    const auto was = pack_bytes(remote.bare);
    const auto old_note = notes();
    batch(stem);
    const auto now = pack_bytes(remote.bare);
    CHECK(now - was < whole / 10);
    REQUIRE(notes().size() == 1);
    CHECK(notes() != old_note);
    CHECK(!fs::exists(remote.bare / "objects" / "pack" / (old_note[0] + ".pack")));
  }
  CHECK(commit_count(remote.bare, "main") == 4);
  auto fsck = shell("git -C " + q(remote.bare) + " fsck --full");
  INFO(fsck.out);
  CHECK(fsck.rc == 0);
  // Every version of the index is readable, the newest as the pusher has it.
  const std::string index = io::read_file(live / "records" / "index.json");
  CHECK(git_cli(remote.bare, "cat-file -p main:records/index.json") == index);
  for (const char *rev : {"main~1", "main~2", "main~3"})
    CHECK(git_cli(remote.bare, std::string("cat-file -p ") + rev + ":records/index.json").size() > 2000000);
  fs::path check = fresh_clone(remote.bare, tmp.path / "check");
  CHECK(io::read_file(check / "records" / "index.json") == index);
  CHECK(store_disagreements(check).empty());
  CHECK(leftovers(live) == "");
}

TEST_CASE("git-backed store: a big directory's tree reaches a local remote as a delta", "[admission][git][pack]") {
  REQUIRE_GIT();
  TempDir tmp;
  fast_config(tmp.path);
  // 150 seeded records in one directory: a tree of about 12 KB.
  auto remote = make_remote(tmp.path, 150, 1);
  const fs::path live = remote.clones[0];
  auto batch = [&](int from) {
    fs::path dir = tmp.path / ("b" + std::to_string(from));
    fs::create_directories(dir);
    std::vector<fs::path> srcs;
    for (int i = from; i < from + 3; ++i) {
      char id[64];
      std::snprintf(id, sizeof id, "nvidia.b200.triton.seed-op.more-%02d-s01", i);
      json::Value r = strategy_record(id, "blackwell|triton|seed-op|more_" + std::to_string(i) + "|operator");
      srcs.push_back(stage(dir, with_path(r, {"retrieval", "scope", "operator_family"}, "seed-op")));
    }
    REQUIRE(run(admit("insert", srcs[0], live, {srcs[1].string(), srcs[2].string(), "--remote", "origin"})) == 0);
  };
  for (int from : {0, 3, 6}) batch(from);
  const std::string dir = git_cli(live, "rev-parse HEAD:records/strategy/nvidia/blackwell/triton/seed-op");
  CHECK(std::stoi(git_cli(live, "cat-file -s " + dir)) > 4096);
  // The version pack holds the directory's tree whole and its previous
  // versions as deltas (verify-pack names a delta's depth and base).
  std::vector<std::string> notes;
  for (const auto &e : fs::directory_iterator(remote.bare / "otm-version-packs"))
    notes.push_back(e.path().filename().string());
  REQUIRE(notes.size() == 1);
  auto verify = git_cli(remote.bare, "verify-pack -v objects/pack/" + notes[0] + ".idx");
  int tree_deltas = 0;
  for (const auto &l : lines(verify))
    if (l.find(" tree ") != std::string::npos && std::count(l.begin(), l.end(), ' ') >= 6) ++tree_deltas;
  INFO(verify);
  CHECK(verify.find(dir.substr(0, 40) + " tree ") != std::string::npos);
  CHECK(tree_deltas >= 2);
  auto fsck = shell("git -C " + q(remote.bare) + " fsck --full");
  INFO(fsck.out);
  CHECK(fsck.rc == 0);
  fs::path check = fresh_clone(remote.bare, tmp.path / "check");
  CHECK(git_cli(check, "ls-tree -r HEAD") == git_cli(live, "ls-tree -r HEAD"));
  CHECK(store_disagreements(check).empty());
}

TEST_CASE("git-backed store: its settings and the live_git configuration", "[admission][git][config]") {
  auto parse = [](std::vector<std::string> args) {
    auto opts = std::make_unique<cli::Options>("otm-wiki-gate", "usage: test");
    config::Settings::add_options(*opts, admission::live_git_settings());
    args.insert(args.begin(), "otm-wiki-gate");
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    REQUIRE(opts->parse(static_cast<int>(argv.size()), argv.data()));
    auto settings = config::Settings::from_environment();
    settings.apply(*opts);
    return settings;
  };
  ::unsetenv("OTM_LIVE_REMOTE");
  ::unsetenv("OTM_LIVE_AUTHOR");
  ::unsetenv("OTM_LIVE_PUSH_ATTEMPTS");
  auto defaults = admission::live_git_options(parse({}), config::Config::defaults());
  CHECK_FALSE(defaults.remote);
  CHECK(defaults.author.name == "otm-wiki-gate");
  CHECK(defaults.author.email == "otm-wiki-gate@localhost");
  CHECK(defaults.push_attempts == 10);
  CHECK(defaults.backoff_initial_ms == 50);
  CHECK(defaults.backoff_max_ms == 2000);
  CHECK(defaults.flush);
  // The environment, then the flag over it.
  ::setenv("OTM_LIVE_REMOTE", "origin", 1);
  ::setenv("OTM_LIVE_PUSH_ATTEMPTS", "7", 1);
  auto env = admission::live_git_options(parse({}), config::Config::defaults());
  CHECK(env.remote == std::optional<std::string>("origin"));
  CHECK(env.push_attempts == 7);
  auto flags = admission::live_git_options(
      parse({"--remote", "shared", "--push-attempts", "3", "--author", "Ada L <a@b.org>"}), config::Config::defaults());
  CHECK(flags.remote == std::optional<std::string>("shared"));
  CHECK(flags.push_attempts == 3);
  CHECK(flags.author.name == "Ada L");
  ::unsetenv("OTM_LIVE_REMOTE");
  ::unsetenv("OTM_LIVE_PUSH_ATTEMPTS");
  // Bad values are usage errors naming what to fix.
  CHECK_THROWS_WITH(admission::live_git_options(parse({"--author", "nobody"}), config::Config::defaults()),
                    Catch::Contains("'Name <email>'"));
  CHECK_THROWS_WITH(admission::live_git_options(parse({"--push-attempts", "0"}), config::Config::defaults()),
                    Catch::Contains("--push-attempts"));
  TempDir tmp;
  for (const char *bad : {R"({"live_git": {"push_attempts": 0}})", R"({"live_git": {"backoff_max_ms": 1e300}})",
                          R"({"live_git": {"flush": "yes"}})", R"({"live_git": []})"}) {
    io::write_file_atomic(tmp.path / "bad.json", bad);
    INFO(bad);
    CHECK_THROWS(admission::live_git_options(parse({}), config::Config::load(tmp.path / "bad.json")));
  }
  io::write_file_atomic(tmp.path / "ok.json", R"({"live_git": {"push_attempts": 2, "flush": false}})");
  auto over = admission::live_git_options(parse({}), config::Config::load(tmp.path / "ok.json"));
  CHECK(over.push_attempts == 2);
  CHECK_FALSE(over.flush);
  CHECK(git::parse_signature("A B <a@b>")->email == "a@b");
  CHECK_FALSE(git::parse_signature("A B"));
  CHECK_FALSE(git::parse_signature("<a@b>"));
}
