// A batch's log (admission/batch_log.hpp): a batch interrupted before its
// fold is rolled back whole by the next writer; one interrupted after it is
// finished; a log naming a file no batch writes is refused.
#include <catch2/catch.hpp>

#include "admission/actions.hpp"
#include "admission/batch_log.hpp"
#include "admission/index_journal_writer.hpp"
#include "admission/store_commit.hpp"
#include "admission_fixtures.hpp"
#include "store/index_journal.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

namespace {
json::Value rec(int i) {
  return strategy_record(nth_id("blog", i), "blackwell|triton|toy-op|blog_" + std::to_string(i) + "|operator");
}
std::string path_of(const json::Value &r) { return "records/" + record::record_relpath(r).generic_string(); }
// Every file under `root`, relative, with its bytes.
std::map<std::string, std::string> snapshot(const fs::path &root) {
  std::map<std::string, std::string> out;
  for (const auto &e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().filename() != ".otm-index-keys")
      out[e.path().lexically_relative(root).generic_string()] = io::read_file(e.path());
  return out;
}
} // namespace

TEST_CASE("a batch stopped before its fold is rolled back whole, after it finished", "[admission][batch]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 3);
  const std::string target = "nvidia.b200.triton.seed-op.seed-01-s01";
  auto before = snapshot(live);
  {
    // Two inserts and a re-ranking confirm of a seeded record, as a batch
    // writes them, then the writer "dies": no flush, no fold.
    admission::BatchLog log(live, {path_of(rec(0)), path_of(rec(1))});
    for (int i = 0; i < 2; ++i) {
      admission::CommitRequest req{live, rec(i), std::nullopt, {}, record::kBuilderVersion, {}};
      req.batch = &log;
      REQUIRE(admission::insert_record(req).exit_code == 0);
    }
    admission::CommitRequest req{live, strategy_record(nth_id("blog-echo", 0)), target, {}, record::kBuilderVersion,
                                 {}};
    req.batch = &log;
    REQUIRE(admission::confirm_record(req).exit_code == 0);
    REQUIRE(fs::exists(live / path_of(rec(0))));
    REQUIRE(fs::exists(admission::BatchLog::file(live)));
    // Readers see the records committed so far, record by record.
    CHECK(store::load_index(live)->get("count").as_int() == 5);
    CHECK(store_disagreements(live).empty());
  }
  admission::recover_interrupted_commit(live);
  CHECK(snapshot(live) == before);
  CHECK_FALSE(fs::exists(admission::BatchLog::file(live)));
  CHECK(store_disagreements(live).empty());

  // Stopped after the fold (index.json written, its hash logged), before
  // the journal and the log went: finished, the batch kept.
  {
    admission::BatchLog log(live, {path_of(rec(2))});
    admission::CommitRequest req{live, rec(2), std::nullopt, {}, record::kBuilderVersion, {}};
    req.batch = &log;
    REQUIRE(admission::insert_record(req).exit_code == 0);
    std::string journal = io::read_file(store::journal_file(live));
    REQUIRE(admission::compact_index(live, {}, [&](const std::string &text) { log.folding(text); }));
    io::write_file_atomic(store::journal_file(live), journal); // as if the removal had not happened
  }
  admission::recover_interrupted_commit(live);
  CHECK_FALSE(fs::exists(store::journal_file(live)));
  CHECK_FALSE(fs::exists(admission::BatchLog::file(live)));
  CHECK(json::parse_file(live / "records" / "index.json").get("count").as_int() == 4);
  CHECK(store_disagreements(live).empty());
}

TEST_CASE("a batch log naming a file outside records/ is refused, nothing touched", "[admission][batch]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  io::write_file_atomic(live / "keep.txt", "mine\n");
  io::write_file_atomic(admission::BatchLog::file(live),
                        R"({"journal_length": 0, "new_files": [{"path": "keep.txt", "existed": false}]})"
                        "\n");
  try {
    admission::recover_interrupted_commit(live);
    FAIL("no refusal");
  } catch (const io::IoError &e) {
    CHECK_THAT(e.what(), Catch::Contains("which no batch writes"));
  }
  CHECK(io::read_file(live / "keep.txt") == "mine\n");
}
