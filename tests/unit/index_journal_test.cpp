// The live index's journal (store/index_journal.hpp), its compaction and the
// keys index (store/index_keys.hpp): what a reader sees around the commit
// point, a torn tail, a compaction stopped half-way, a stale keys index, and
// the limit that triggers compaction.
#include <catch2/catch.hpp>

#include "admission/actions.hpp"
#include "admission/gate_commands.hpp"
#include "admission/index_journal_writer.hpp"
#include "admission/match.hpp"
#include "admission/store_commit.hpp"
#include "admission/store_lock.hpp"
#include "admission_fixtures.hpp"
#include "store/candidate_summary.hpp"
#include "store/index_journal.hpp"
#include "store/index_keys.hpp"
#include "store/pending_commit.hpp"
#include "text/sha256.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

namespace {

// The action as a command applies it, before the command folds the
// journal into records/index.json: the state inside a command (or that a
// writer killed before its fold leaves), which these tests look at.
admission::GateReport commit(const fs::path &live, const std::string &action, const fs::path &source,
                             std::optional<std::string> target = std::nullopt, config::Limits limits = {}) {
  admission::CommitRequest req{
      live,  json::parse_file(source), target, {"2026-01-02T03:04:05Z", "20260102_030405"}, record::kBuilderVersion,
      limits};
  admission::StoreLock lock(live, admission::StoreLock::Mode::Exclusive);
  admission::recover_interrupted_commit(live, limits);
  admission::GateReport rep;
  std::string act = action;
  if (action == "auto") {
    auto d = admission::decide_auto(req.record, admission::find_candidates(req.record, live, limits));
    rep.out = "auto: " + d.action + (d.target.empty() ? "" : " --target " + d.target) + " (" + d.reason + ")\n";
    act = d.action;
    if (!d.target.empty()) req.target = d.target;
  }
  auto o = act == "insert"    ? admission::insert_record(req)
           : act == "confirm" ? admission::confirm_record(req)
                              : admission::flag_conflict(req);
  rep.exit_code = o.exit_code;
  rep.out += o.message + "\n";
  return rep;
}

std::string id_of(int i) { return "nvidia.b200.triton.toy-op.j" + std::to_string(i) + "-s01"; }

long long count_of(const fs::path &live) { return store::load_index(live)->get("count").as_int().value_or(-1); }

bool base_has(const fs::path &live, const std::string &id) {
  return io::read_file(live / "records" / "index.json").find("\"" + id + "\"") != std::string::npos;
}

} // namespace

TEST_CASE("an insert appends one journal line, the commit point, and readers fold it in", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  std::string base = io::read_file(live / "records" / "index.json");
  auto rep = commit(live, "insert", stage(tmp.path, strategy_record(id_of(0))));
  REQUIRE(rep.exit_code == 0);
  // records/index.json is the base as of the last compaction: untouched.
  CHECK(io::read_file(live / "records" / "index.json") == base);
  auto journal = store::read_journal(live);
  CHECK(journal.lines.size() == 1);
  CHECK_FALSE(journal.torn_tail());
  CHECK(count_of(live) == 3);
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  CHECK(store::KeysIndex::open(live).path_of(id_of(0)) ==
        std::optional<std::string>("records/strategy/nvidia/blackwell/triton/toy-op/" + id_of(0) + ".json"));
}

TEST_CASE("a torn journal tail is ignored by readers and cut by the next writer", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(0)))).exit_code == 0);
  auto good = io::read_file(store::journal_file(live));
  // What a writer killed in the middle of its append leaves: part of a line.
  auto line = store::journal_line(admission::live_index_entry(strategy_record(id_of(1)), "records/x/y.json"),
                                  store::candidate_summary_text(strategy_record(id_of(1))));
  for (std::size_t cut : {std::size_t(3), line.text.size() / 2, line.text.size() - 1}) {
    io::write_file_atomic(store::journal_file(live), good + line.text.substr(0, cut));
    CHECK(store::read_journal(live).torn_tail());
    CHECK(count_of(live) == 3);
    CHECK(store_disagreements(live).empty());
  }
  // A whole line whose bytes are not the ones hashed (a power loss): torn too.
  std::string bad = line.text;
  bad[bad.size() / 2] ^= 1;
  io::write_file_atomic(store::journal_file(live), good + bad);
  CHECK(count_of(live) == 3);
  CHECK(store_disagreements(live).empty());
  // The next writer cuts it before it appends.
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(2)))).exit_code == 0);
  auto journal = store::read_journal(live);
  CHECK_FALSE(journal.torn_tail());
  CHECK(journal.lines.size() == 2);
  CHECK(io::read_file(store::journal_file(live)).starts_with(good));
  CHECK(count_of(live) == 4);
  CHECK(store_disagreements(live).empty());
  // Damage before the last line is not a torn append: it is refused.
  io::write_file_atomic(store::journal_file(live), "garbage\n" + good);
  CHECK_THROWS_AS(store::load_index(live), json::ParseError);
}

TEST_CASE("a reader sees the old state before the journal line and the new one after", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(0)))).exit_code == 0);
  auto before = store::read_journal(live).valid_end;
  // A writer that wrote its description and its record file, not its line.
  auto rec = strategy_record(id_of(1));
  std::string rel = "records/" + record::record_relpath(rec).generic_string();
  std::string bytes = json::to_pretty(rec);
  auto line = store::journal_line(admission::live_index_entry(rec, rel), store::candidate_summary_text(rec));
  store::PendingCommit pending;
  pending.files.push_back({rel, text::sha256_hex(bytes), std::nullopt});
  pending.journal_offset = before;
  pending.journal_line_sha256 = line.sha256;
  io::write_file_atomic(store::pending_commit_file(live), json::to_line(store::to_json(pending)));
  io::write_file_atomic(live / rel, bytes);
  CHECK(store::load_records(live).size() == 3);
  CHECK(count_of(live) == 3);
  CHECK(store_disagreements(live).empty());
  CHECK_FALSE(store::KeysIndex::open(live).path_of(id_of(1)));
  // Half of its line: still before the commit point.
  admission::append_journal_line(live, before, line.text.substr(0, 40));
  CHECK(store::load_records(live).size() == 3);
  CHECK(store_disagreements(live).empty());
  // The whole line: the commit is made.
  admission::truncate_journal(live, before);
  admission::append_journal_line(live, before, line.text);
  CHECK(store::load_records(live).size() == 4);
  CHECK(count_of(live) == 4);
  CHECK(store_disagreements(live).empty());
  admission::recover_interrupted_commit(live);
  CHECK_FALSE(fs::exists(store::pending_commit_file(live)));
  CHECK(count_of(live) == 4);

  // Not reached: the next writer rolls the file back and cuts the journal.
  auto rec2 = strategy_record(id_of(2));
  std::string rel2 = "records/" + record::record_relpath(rec2).generic_string();
  std::string bytes2 = json::to_pretty(rec2);
  auto line2 = store::journal_line(admission::live_index_entry(rec2, rel2), store::candidate_summary_text(rec2));
  auto at = store::read_journal(live).valid_end;
  store::PendingCommit p2;
  p2.files.push_back({rel2, text::sha256_hex(bytes2), std::nullopt});
  p2.journal_offset = at;
  p2.journal_line_sha256 = line2.sha256;
  io::write_file_atomic(store::pending_commit_file(live), json::to_line(store::to_json(p2)));
  io::write_file_atomic(live / rel2, bytes2);
  admission::append_journal_line(live, at, line2.text.substr(0, line2.text.size() - 1));
  admission::recover_interrupted_commit(live);
  CHECK_FALSE(fs::exists(live / rel2));
  CHECK(fs::file_size(store::journal_file(live)) == at);
  CHECK(count_of(live) == 4);
  CHECK(store_disagreements(live).empty());
}

TEST_CASE("folding is idempotent: a compaction stopped between its two steps reads the same", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  for (int i = 0; i < 3; ++i)
    REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(i)))).exit_code == 0);
  json::Value folded = *store::load_index(live);
  // Compaction's first step (the new index.json) without its second (the
  // journal's removal).
  io::write_file_atomic(live / "records" / "index.json", json::to_pretty(folded));
  REQUIRE(fs::exists(store::journal_file(live)));
  CHECK(*store::load_index(live) == folded);
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  // The next writer goes on from there; a compaction then finishes the job.
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(3)))).exit_code == 0);
  CHECK(count_of(live) == 6);
  CHECK(admission::compact_index(live, {}));
  CHECK_FALSE(fs::exists(store::journal_file(live)));
  CHECK(base_has(live, id_of(3)));
  CHECK(count_of(live) == 6);
  CHECK(store_disagreements(live).empty());
  CHECK_FALSE(admission::compact_index(live, {})); // nothing left to fold
}

TEST_CASE("a compaction after a compaction splices too: every untouched byte of the index stays", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 3);
  // An entry laid out as no rewrite would lay it out: only a splice keeps it.
  const std::string odd = "\"id\":  \"nvidia.b200.triton.seed-op.seed-00-s01\"";
  std::string text = io::read_file(live / "records" / "index.json");
  auto at = text.find("\"id\": \"nvidia.b200.triton.seed-op.seed-00-s01\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, odd.size() - 1, odd);
  io::write_file_atomic(live / "records" / "index.json", text);
  // Each insert sorts last; the second compaction builds on the keys the
  // first one's splice wrote.
  for (int i = 0; i < 2; ++i) {
    REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(i)))).exit_code == 0);
    REQUIRE(admission::compact_index(live, {}));
    INFO("compaction " << i);
    CHECK(io::read_file(live / "records" / "index.json").find(odd) != std::string::npos);
    CHECK(base_has(live, id_of(i)));
  }
  CHECK(count_of(live) == 5);
  CHECK(store_disagreements(live).empty());
}

TEST_CASE("the keys index is rebuilt when index.json changes behind its back", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 3);
  std::string gone = "nvidia.b200.triton.seed-op.seed-01-s01";
  auto keys = store::KeysIndex::open(live);
  REQUIRE(keys.path_of(gone));
  REQUIRE(fs::exists(store::keys_cache_file(live)));
  // Another tool rewrites the index (a checkout, a reindex).
  json::Value index = json::parse_file(live / "records" / "index.json");
  json::Array kept;
  for (const auto &e : *index.get("records").as_array())
    if (e.string_or("id") != gone) kept.push_back(e);
  index.set("records", json::Value(kept));
  index.set("count", static_cast<long long>(kept.size()));
  fs::remove(live / *keys.path_of(gone));
  io::write_file_atomic(live / "records" / "index.json", json::to_pretty(index));
  CHECK_FALSE(store::KeysIndex::open(live).path_of(gone));
  CHECK(store::KeysIndex::open(live).path_of("nvidia.b200.triton.seed-op.seed-02-s01"));
  // A damaged cache is rebuilt too, and a read-only reader still answers.
  io::write_file_atomic(store::keys_cache_file(live), "otm-index-keys 1 garbage\n");
  CHECK(store::KeysIndex::open(live).path_of("nvidia.b200.triton.seed-op.seed-00-s01"));
  // The scope query agrees with the one scope rule.
  json::Value scope = json::parse(R"({"vendor": "nvidia", "arch": "blackwell", "dsl": "triton"})");
  auto rows = store::KeysIndex::open(live).in_scope(scope).rows;
  CHECK(rows.size() == 2);
  CHECK(store::KeysIndex::open(live).in_scope(json::parse(R"({"vendor": "amd"})")).rows.empty());
}

TEST_CASE("insert refuses an id found only in the journal", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(0)))).exit_code == 0);
  REQUIRE_FALSE(base_has(live, id_of(0)));
  // The same id in another scope: another path, so only the index knows it.
  auto dup = with_path(strategy_record(id_of(0)), {"retrieval", "scope", "operator_family"}, "other-op");
  auto rep = commit(live, "insert", stage(tmp.path / "dup", dup));
  CHECK(rep.exit_code == 1);
  CHECK_THAT(rep.out,
             Catch::Contains("REFUSED") && Catch::Contains("records/strategy/nvidia/blackwell/triton/toy-op/"));
  CHECK(count_of(live) == 3);
  CHECK(store::read_journal(live).lines.size() == 1);
}

TEST_CASE("the commit that fills the journal to limits.max_journal_entries compacts it", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  config::Limits limits;
  limits.max_journal_entries = 3;
  for (int i = 0; i < 2; ++i)
    REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(i))), std::nullopt, limits).exit_code == 0);
  CHECK(store::read_journal(live).lines.size() == 2);
  // Through the action: its Outcome names index.json too.
  admission::CommitRequest req{live, strategy_record(id_of(2)), std::nullopt, {}, record::kBuilderVersion, limits};
  auto out = admission::insert_record(req);
  REQUIRE(out.exit_code == 0);
  CHECK(std::find(out.changed.begin(), out.changed.end(), "records/index.json") != out.changed.end());
  CHECK_FALSE(fs::exists(store::journal_file(live)));
  for (int i = 0; i < 3; ++i) CHECK(base_has(live, id_of(i)));
  CHECK(count_of(live) == 5);
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  // A confirm that re-ranks is an upsert line; match reads it.
  REQUIRE(commit(live, "confirm", stage(tmp.path, strategy_record(id_of(9))), id_of(0), limits).exit_code == 0);
  CHECK(store_disagreements(live).empty());
  auto m = admission::find_candidates(strategy_record(id_of(7)), live);
  CHECK(m.candidates.size() == 3);
}

TEST_CASE("limits.max_journal_entries is overridable and checked", "[admission][config]") {
  TempDir tmp;
  io::write_file_atomic(tmp.path / "c.json", R"({"limits": {"max_journal_entries": 2}})");
  auto cfg = config::Config::load(std::optional<fs::path>(tmp.path / "c.json"));
  CHECK(cfg.limits().max_journal_entries == 2);
  io::write_file_atomic(tmp.path / "bad.json", R"({"limits": {"max_journal_entries": 0}})");
  CHECK_THROWS(config::Config::load(std::optional<fs::path>(tmp.path / "bad.json")).limits());
  // The executable folds the journal before every command ends, whatever
  // the limit; `compact` folds one a writer killed before its fold left.
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  auto gate = [&](const json::Value &rec) {
    return run({bin("otm-wiki-gate"), "commit", "insert", stage(tmp.path, rec).string(), "--live", live.string(),
                "--config", (tmp.path / "c.json").string()});
  };
  REQUIRE(gate(strategy_record(id_of(0))) == 0);
  CHECK_FALSE(fs::exists(store::journal_file(live)));
  REQUIRE(gate(strategy_record(id_of(1))) == 0);
  CHECK_FALSE(fs::exists(store::journal_file(live)));
  CHECK(count_of(live) == 3);
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record(id_of(2)))).exit_code == 0);
  REQUIRE(fs::exists(store::journal_file(live)));
  REQUIRE(run({bin("otm-wiki-gate"), "compact", "--live", live.string()}) == 0);
  CHECK_FALSE(fs::exists(store::journal_file(live)));
  CHECK(base_has(live, id_of(2)));
  CHECK(store_disagreements(live).empty());
}
