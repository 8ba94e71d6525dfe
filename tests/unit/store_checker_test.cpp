// The store's own checker (issue 26) on live stores otm wrote: every tool
// that is not otm reads records/index.json, so after every command that
// changes a live store the index lists exactly its records and
// check_kernel_wiki.py --full passes. Skipped with the reason where the
// checker (../shared/gpu-wiki/tools) or python3-jsonschema is missing;
// required when OTM_REQUIRE_REAL_STORE=1 (CI).
#include <catch2/catch.hpp>

#include "admission_fixtures.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "store_checker.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

namespace {
json::Value par_record(const std::string &stem, int i) {
  return strategy_record(nth_id(stem, i), "blackwell|triton|toy-op|" + stem + "_" + std::to_string(i) + "|operator");
}
} // namespace

TEST_CASE("the store's own checker passes after single inserts, a confirm and a conflict", "[admission][checker]") {
  OTM_STORE_CHECKER_OR_SKIP(checker);
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 4);
  CHECK_STORE_CHECKER_PASSES(checker, live); // the seed itself
  for (int i = 0; i < 3; ++i) REQUIRE(run(gate("insert", stage(tmp.path, par_record("one", i)), live)) == 0);
  // The index every other tool reads lists what otm admitted: no journal
  // is left between commands.
  CHECK_FALSE(fs::exists(live / workspace::kJournalRelpath));
  CHECK(json::parse_file(live / workspace::kIndexRelpath).get("count").as_int() == 7);
  CHECK_STORE_CHECKER_PASSES(checker, live);
  // A confirm that re-ranks its target rewrites the target's index entry.
  std::string target = "nvidia.b200.triton.seed-op.seed-01-s01";
  for (int i = 0; i < 3; ++i) {
    auto echo = strategy_record(nth_id("echo", i));
    REQUIRE(run(gate("confirm", stage(tmp.path, echo), live, target)) == 0);
  }
  CHECK_FALSE(fs::exists(live / workspace::kJournalRelpath));
  CHECK_STORE_CHECKER_PASSES(checker, live);
  CHECK(store_disagreements(live).empty());
}

TEST_CASE("index.json after a command keeps every byte outside the changed entries", "[admission][checker]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 6);
  std::string before = io::read_file(live / workspace::kIndexRelpath);
  REQUIRE(run(gate("insert", stage(tmp.path, par_record("splice", 0)), live)) == 0);
  std::string after = io::read_file(live / workspace::kIndexRelpath);
  CHECK_FALSE(fs::exists(live / workspace::kJournalRelpath));
  // The new index is the old with `count` changed (6 -> 7) and one
  // contiguous insertion (the new entry and a separator): every other byte
  // is the old file's.
  auto count_at = before.find("\"count\": 6");
  REQUIRE(count_at != std::string::npos);
  REQUIRE(after.compare(0, count_at, before, 0, count_at) == 0);
  CHECK(after.compare(count_at, 10, "\"count\": 7") == 0);
  std::size_t from = count_at + 10, p = from;
  while (p < before.size() && before[p] == after[p]) ++p;
  REQUIRE(after.size() > before.size());
  std::string inserted = after.substr(p, after.size() - before.size());
  CHECK_THAT(inserted, Catch::Contains(nth_id("splice", 0)));
  CHECK(after.substr(from, p - from) + after.substr(p + inserted.size()) == before.substr(from));
  auto index = json::parse(after);
  CHECK(index.get("count").as_int() == 7);
  CHECK(json::to_pretty(index) == after); // the layout is the index's own
  CHECK(store_disagreements(live).empty());
  // The last entry replaced in place (a confirm of it): still the layout.
  REQUIRE(run(gate("confirm", stage(tmp.path, strategy_record(nth_id("splice-echo", 0))), live, nth_id("splice", 0))) ==
          0);
  std::string again = io::read_file(live / workspace::kIndexRelpath);
  CHECK(json::to_pretty(json::parse(again)) == again);
  CHECK(store_disagreements(live).empty());
}

TEST_CASE("a batch: one lock, one index rewrite, refused records reported and the others admitted",
          "[admission][checker]") {
  TempDir tmp;
  fs::path live = tmp.path / "live", staging = tmp.path / "staging";
  seed_live_store(live, 3);
  // A staging store of 6 records; one fails validation, one is an id the
  // live store holds already with other content.
  for (int i = 0; i < 6; ++i) {
    auto rec = par_record("batch", i);
    if (i == 2) rec.set("type", "no-such-type");
    io::write_file_atomic(staging / "records" / (nth_id("batch", i) + ".json"), json::to_pretty(rec));
  }
  auto taken = strategy_record("nvidia.b200.triton.seed-op.seed-01-s01");
  taken.set("title", "another record under a taken id");
  fs::path taken_file = stage(tmp.path, taken);
  auto r = testsupport::run_capturing(bin("otm-wiki-gate") + " commit insert " + staging.string() + " " +
                                          taken_file.string() + " --live " + live.string(),
                                      tmp.path);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("batch: 7 records offered, 5 inserted, 0 confirmed, 0 queued as conflicts, 2 "
                                    "refused; records/index.json rewritten"));
  CHECK_THAT(r.out, Catch::Contains("refused: " + taken_file.string()));
  CHECK_THAT(r.out, Catch::Contains("refused: " + (staging / "records" / (nth_id("batch", 2) + ".json")).string()));
  CHECK_THAT(r.err, Catch::Contains("SCHEMA ERRORS"));
  CHECK(json::parse_file(live / workspace::kIndexRelpath).get("count").as_int() == 8);
  CHECK_FALSE(fs::exists(live / workspace::kJournalRelpath));
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  // Every admitted source is marked merged; the refused are not.
  CHECK(fs::exists(staging / "records" / (nth_id("batch", 0) + ".json.merged")));
  CHECK_FALSE(fs::exists(staging / "records" / (nth_id("batch", 2) + ".json.merged")));

  // A JSONL stream on stdin, decided in order: a record repeating the
  // episode of one inserted earlier in the same batch confirms it.
  auto first = par_record("stream", 0);
  auto again = strategy_record(nth_id("stream", 1), first.string_or("episode_key"));
  std::string jsonl = json::to_line(first) + "\n" + json::to_line(again) + "\n";
  io::write_file_atomic(tmp.path / "stream.jsonl", jsonl);
  auto s = testsupport::run_capturing(bin("otm-wiki-gate") + " commit auto - --live " + live.string() + " < " +
                                          (tmp.path / "stream.jsonl").string(),
                                      tmp.path);
  INFO(s.out << s.err);
  CHECK(s.code == 0);
  CHECK_THAT(s.out, Catch::Contains("<stdin>:1: auto: insert"));
  CHECK_THAT(s.out, Catch::Contains("<stdin>:2: auto: confirm --target " + nth_id("stream", 0)));
  CHECK_THAT(s.out,
             Catch::Contains("batch: 2 records offered, 1 inserted, 1 confirmed, 0 queued as conflicts, 0 refused"));
  CHECK(store_disagreements(live).empty());

  OTM_STORE_CHECKER_OR_SKIP(checker);
  CHECK_STORE_CHECKER_PASSES(checker, live);
}
