// The admission gate under real concurrency and crashes: separate processes
// of the built otm-wiki-gate against one live store.
#include <catch2/catch.hpp>

#include "admission/merged_marker.hpp"
#include "admission_fixtures.hpp"
#include "store/pending_commit.hpp"
#include "store_checker.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

TEST_CASE("16 concurrent inserts from separate processes all land and are indexed", "[admission][process]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 4);
  std::vector<pid_t> pids;
  for (int i = 0; i < 16; ++i) {
    auto rec = strategy_record(nth_id("par", i), "blackwell|triton|toy-op|par_" + std::to_string(i) + "|operator");
    pids.push_back(spawn(gate("insert", stage(tmp.path, rec), live)));
  }
  for (pid_t p : pids) {
    REQUIRE(p > 0);
    CHECK(wait_for(p) == 0);
  }
  auto index = *store::load_index(live);
  CHECK(index.get("count").as_int() == 20);
  CHECK(store::load_records(live).size() == 20);
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  for (int i = 0; i < 16; ++i) CHECK(store::read_merged_marker(tmp.path / (nth_id("par", i) + ".json")));
  // index.json itself, as every other tool reads it, lists all 20.
  CHECK(json::parse_file(live / "records" / "index.json").get("count").as_int() == 20);
  OTM_STORE_CHECKER_OR_SKIP(checker);
  CHECK_STORE_CHECKER_PASSES(checker, live);
}

TEST_CASE("16 concurrent confirms of the same pair count once", "[admission][process]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  std::string target = "nvidia.b200.triton.seed-op.seed-01-s01";
  fs::path src = stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.echo-s01"));
  std::vector<pid_t> pids;
  for (int i = 0; i < 16; ++i) pids.push_back(spawn(gate("confirm", src, live, target)));
  for (pid_t p : pids) CHECK(wait_for(p) == 0);
  auto t = json::parse_file(live / "records/strategy/nvidia/blackwell/triton/seed-op" / (target + ".json"));
  const auto &track = t.get("worth").get("track");
  CHECK(track.get("counters").get("verified_effective").as_int() == 1);
  CHECK(track.get("confirm_keys") == json::Value::strings({target + ":nvidia.b200.triton.toy-op.echo-s01"}));
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  CHECK(store::read_merged_marker(src)->get("merges").size() == 16);
}

TEST_CASE("a commit killed at random points never leaves the store inconsistent", "[admission][process]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 40);
  int calibrated = -1;
  KillWindow window(
      timed_run_us(gate("insert", stage(tmp.path, strategy_record(nth_id("calib", 0))), live), calibrated), 20261129);
  REQUIRE(calibrated == 0);
  int iterations = kill_iterations();
  int mid_commit = 0;
  std::set<fs::path> temps_seen;
  std::string confirm_target = nth_id("calib", 0);
  // Until a kill has landed inside a commit too (the case this test exists
  // for): on a loaded machine 30 random kills can all miss the commit's
  // short window, which made the check below flaky.
  for (int i = 0; i < iterations || (mid_commit == 0 && i < 10 * iterations); ++i) {
    if (i == iterations) window.narrow_to_the_tail();
    // Alternate inserts and confirms, both of which rewrite the index.
    auto rec = strategy_record(nth_id("kill", i));
    fs::path src = stage(tmp.path, rec);
    REQUIRE(window.run_and_kill(i % 3 == 2 ? gate("confirm", src, live, confirm_target) : gate("insert", src, live)) >=
            0);
    // A kill inside a commit leaves its description (store/pending_commit.hpp)
    // or the temporary file of one of its writes (one not seen before).
    bool inside = io::is_regular_file(store::pending_commit_file(live));
    for (fs::recursive_directory_iterator it(live), end; it != end; ++it)
      if (it->path().filename().string().find(".tmp.") != std::string::npos && temps_seen.insert(it->path()).second)
        inside = true;
    if (inside) ++mid_commit;
    auto problems = store_disagreements(live);
    INFO("iteration " << i << ": " << (problems.empty() ? "" : problems[0]));
    REQUIRE(problems.empty());
  }
  // Killing must have happened, or the test proved nothing.
  CHECK(window.killed() > iterations / 4);
  // Some kills landed inside a commit (its description was left behind),
  // the case this test exists for.
  CHECK(mid_commit > 0);
  // The next writer clears what the killed ones left and still works.
  REQUIRE(run(gate("insert", stage(tmp.path, strategy_record(nth_id("final", 0))), live)) == 0);
  CHECK_FALSE(io::is_regular_file(store::pending_commit_file(live)));
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  INFO("killed " << window.killed() << ", completed " << window.completed());
  SUCCEED();
}

TEST_CASE("otm-wiki-gate exit codes", "[admission][process]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  fs::path src = stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.cli-s01"));
  CHECK(run({bin("otm-wiki-gate"), "match", src.string(), "--live", live.string()}) == 0);
  CHECK(run({bin("otm-wiki-gate"), "match", (tmp.path / "missing.json").string(), "--live", live.string()}) == 2);
  CHECK(run(gate("confirm", src, live)) == 2);
  CHECK(run({bin("otm-wiki-gate"), "commit", "insert", src.string()}) == 2); // no live store
  CHECK(run(gate("insert", src, live)) == 0);
  CHECK(run(gate("insert", stage(tmp.path / "dup", strategy_record("nvidia.b200.triton.toy-op.cli-s01", "other")),
                 live)) == 1);
  CHECK(run({bin("otm-wiki-gate"), "--help"}) == 0);
}

TEST_CASE("staging to live: score, summarise, admit", "[admission][process]") {
  TempDir tmp;
  fs::path staging = tmp.path / "staging", live = tmp.path / "live";
  seed_live_store(live, 2);
  std::vector<fs::path> staged;
  for (int i = 0; i < 3; ++i) {
    auto rec = strategy_record(nth_id("flow", i), "blackwell|triton|toy-op|flow_" + std::to_string(i) + "|operator");
    staged.push_back(staging / "records" / record::record_relpath(rec));
    io::write_file_atomic(staged.back(), json::to_pretty(rec));
  }
  REQUIRE(run({bin("otm-score"), "--store", staging.string()}) == 0);
  CHECK(store_disagreements(staging).empty());
  for (const auto &p : staged) CHECK(run(gate("auto", p, live)) == 0);
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  CHECK(store::load_index(live)->get("count").as_int() == 5);
  // Admission leaves the staged records and the staging index in agreement.
  CHECK(store_disagreements(staging).empty());
  REQUIRE(run({bin("otm-readme"), "--store", staging.string()}) == 0);
  auto readme = io::read_file(staging / "README.md");
  CHECK_THAT(readme, Catch::Contains("Not yet submitted to the gate (0): none"));
  CHECK_THAT(readme, Catch::Contains("`" + nth_id("flow", 2) + "`: insert"));
}
