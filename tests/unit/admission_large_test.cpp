// Admission at 10,000 generated records (bench/storegen): the concurrency
// and kill -9 guarantees of admission_process_test.cpp at the size of a
// large store, where a record's commit must not read the whole index. The
// store is generated once per run of the test binary and each test works
// on a hard-linked clone of it: every writer replaces a file by rename,
// never in place, so a clone's writes never reach the original.
// OTM_LARGE_RECORDS=N sets another size (100,000 holds too: every command
// then rewrites a 247 MB index.json, seconds each, which is why ctest runs
// 10,000 for the CI budget and bench/batch-admission times 100,000;
// issue 26). The sanitizer build (Debug, about fifteen times slower)
// generates 2,000.
#include <catch2/catch.hpp>

#include "admission_fixtures.hpp"
#include "store/candidate_summary.hpp"
#include "store/index_journal.hpp"
#include "store/index_keys.hpp"
#include "store/pending_commit.hpp"
#include "storegen/store_generator.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

namespace {

std::size_t large_size() {
  const char *n = std::getenv("OTM_LARGE_RECORDS");
#ifdef OTM_SANITIZED_BUILD
  constexpr std::size_t kDefault = 2000;
#else
  constexpr std::size_t kDefault = 10000;
#endif
  return n && std::atol(n) > 0 ? static_cast<std::size_t>(std::atol(n)) : kDefault;
}

const fs::path &large_store() {
  static testsupport::TempDir dir("admission-large");
  static const fs::path root = [] {
    fs::path r = dir.path() / "store";
    bench::generate_store(r, {large_size(), 1});
    store::KeysIndex::open(r); // the keys index, built once, shared by the clones
    return r;
  }();
  return root;
}

fs::path clone_store(const fs::path &to) {
  REQUIRE(run({"/bin/cp", "-al", large_store().string(), to.string()}) == 0);
  return to;
}

// Where the index and the record files disagree about the records a test
// touched, as a reader sees the store (a commit under way reads as before
// it), with the summary the keys hold for it, and every journal entry
// against its record: what store_disagreements checks, without reading
// 100,000 records after every kill.
std::vector<std::string> touched_disagreements(const fs::path &live, const std::vector<json::Value> &recs) {
  std::vector<std::string> out;
  std::optional<store::KeysIndex> keys;
  try {
    keys = store::KeysIndex::open(live);
  } catch (const std::exception &e) {
    return {std::string("keys: ") + e.what()};
  }
  auto view = store::pending_view(live);
  auto as_read = [&](const std::string &rel) -> std::optional<json::Value> {
    if (auto it = view.find(rel); it != view.end()) {
      if (!it->second) return std::nullopt;
      return json::parse(*it->second);
    }
    if (!fs::exists(live / rel)) return std::nullopt;
    return store::read_record(live, rel);
  };
  for (const auto &r : recs) {
    std::string id = r.string_or("id");
    std::string rel = "records/" + record::record_relpath(r).generic_string();
    bool file = as_read(rel).has_value();
    auto indexed = keys->path_of(id);
    if (file != indexed.has_value())
      out.push_back(id + ": record file " + (file ? "present" : "absent") + ", index entry " +
                    (indexed ? "present" : "absent"));
    else if (indexed && *indexed != rel)
      out.push_back(id + ": indexed at " + *indexed);
    else if (indexed &&
             keys->summary_of(id) != std::optional<std::string_view>(store::candidate_summary_text(*as_read(rel))))
      out.push_back(id + ": the keys' summary is not the record's");
  }
  for (const auto &e : store::journal_entries(store::read_journal(live), live)) {
    auto rec = as_read(e.string_or("path"));
    if (!rec) {
      out.push_back(e.string_or("id") + ": in the journal, no record file");
      continue;
    }
    const auto &w = rec->get("worth");
    if (!(e.get("retrieval") == rec->get("retrieval")) || !(e.get("worth_score") == w.get("rank").get("score")) ||
        !(e.get("tier") == w.get("rank").get("tier")))
      out.push_back(e.string_or("id") + ": journal entry differs from the record");
  }
  return out;
}

} // namespace

// One test case, so that ctest (one process per case) generates the store
// once; each section runs on its own clone.
TEST_CASE("a large store (10,000 records, 2,000 under the sanitizers): concurrent inserts and confirms, "
          "and commits killed with SIGKILL",
          "[admission][process][large]") {
  SECTION("16 concurrent inserts from separate processes all land and are indexed") {
    TempDir tmp;
    fs::path live = clone_store(tmp.path / "live");
    std::vector<json::Value> recs;
    std::vector<pid_t> pids;
    for (int i = 0; i < 16; ++i) {
      recs.push_back(strategy_record(nth_id("par", i)));
      pids.push_back(spawn(gate("insert", stage(tmp.path, recs.back()), live)));
    }
    for (pid_t p : pids) {
      REQUIRE(p > 0);
      CHECK(wait_for(p) == 0);
    }
    CHECK(touched_disagreements(live, recs).empty());
    // Each command folded its journal into records/index.json before it
    // released the lock: none is left, and index.json alone lists all.
    CHECK_FALSE(fs::exists(store::journal_file(live)));
    CHECK(json::parse_file(live / "records" / "index.json").get("count").as_int() ==
          static_cast<long long>(large_size() + 16));
    // The original store is untouched by its clone's commits.
    CHECK_FALSE(fs::exists(store::journal_file(large_store())));
  }

  SECTION("16 concurrent confirms of the same pair count once") {
    TempDir tmp;
    fs::path live = clone_store(tmp.path / "live");
    auto keys = store::KeysIndex::open(live);
    auto scoped = keys.in_scope(json::parse(R"({"vendor": "amd", "arch": "cdna4"})"));
    const auto &rows = scoped.rows;
    REQUIRE_FALSE(rows.empty());
    const store::KeyRow target = rows.front();
    json::Value before = store::read_record(live, std::string(target.path));
    fs::path src = stage(tmp.path, strategy_record(nth_id("echo", 0)));
    std::vector<pid_t> pids;
    for (int i = 0; i < 16; ++i) pids.push_back(spawn(gate("confirm", src, live, std::string(target.id))));
    for (pid_t p : pids) {
      REQUIRE(p > 0);
      CHECK(wait_for(p) == 0);
    }
    json::Value after = store::read_record(live, std::string(target.path));
    auto counted = [](const json::Value &r) {
      return r.get("worth").get("track").get("counters").get("verified_effective").as_int().value_or(0);
    };
    CHECK(counted(after) == counted(before) + 1);
    CHECK(after.get("worth").get("track").get("confirm_keys").size() ==
          before.get("worth").get("track").get("confirm_keys").size() + 1);
    json::Value target_rec = after;
    CHECK(touched_disagreements(live, {target_rec}).empty());
  }

  SECTION("a commit killed at random points never leaves the store inconsistent") {
    TempDir tmp;
    fs::path live = clone_store(tmp.path / "live");
    std::vector<json::Value> recs;
    recs.push_back(strategy_record(nth_id("calib", 0)));
    int calibrated = -1;
    KillWindow window(timed_run_us(gate("insert", stage(tmp.path, recs.back()), live), calibrated), 20261202);
    REQUIRE(calibrated == 0);
    int iterations = kill_iterations();
    int mid_commit = 0;
    std::set<fs::path> temps_seen;
    for (int i = 0; i < iterations || (mid_commit == 0 && i < 10 * iterations); ++i) {
      if (i == iterations) window.narrow_to_the_tail();
      recs.push_back(strategy_record(nth_id("kill", i)));
      REQUIRE(window.run_and_kill(gate("insert", stage(tmp.path, recs.back()), live)) >= 0);
      bool inside = io::is_regular_file(store::pending_commit_file(live));
      for (const auto &dir : {live, live / "records", live / "records/strategy/nvidia/blackwell/triton/toy-op"})
        for (const auto &p : io::list_dir(dir))
          if (p.filename().string().find(".tmp.") != std::string::npos && temps_seen.insert(p).second) inside = true;
      if (inside) ++mid_commit;
      auto problems = touched_disagreements(live, recs);
      INFO("iteration " << i << ": " << (problems.empty() ? "" : problems[0]));
      REQUIRE(problems.empty());
    }
    CHECK(window.killed() > iterations / 4);
    CHECK(mid_commit > 0);
    recs.push_back(strategy_record(nth_id("final", 0)));
    REQUIRE(run(gate("insert", stage(tmp.path, recs.back()), live)) == 0);
    CHECK_FALSE(io::is_regular_file(store::pending_commit_file(live)));
    CHECK_FALSE(store::read_journal(live).torn_tail());
    CHECK(touched_disagreements(live, recs).empty());
  }
}
