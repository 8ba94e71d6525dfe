#include <catch2/catch.hpp>

#include "admission/actions.hpp"
#include "admission/gate_commands.hpp"
#include "admission/match.hpp"
#include "admission/merged_marker.hpp"
#include "admission/store_commit.hpp"
#include "admission_fixtures.hpp"
#include "error_kind.hpp"
#include "store/pending_commit.hpp"
#include "text/sha256.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

namespace {

admission::Timestamp fixed_time() { return {"2026-01-02T03:04:05Z", "20260102_030405"}; }

admission::GateReport commit(const fs::path &live, const std::string &action, const fs::path &source,
                             std::optional<std::string> target = std::nullopt) {
  admission::CommitCommand cmd{action, source.string(), live, target, fixed_time(), admission::default_store_checks()};
  return admission::run_commit(cmd);
}

// Every path under `root` with its size, to prove nothing was written.
std::vector<std::string> snapshot(const fs::path &root) {
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it)
    // The keys index is a cache a reader may build (store/index_keys.hpp).
    if (it->path().filename() != ".otm-index-keys")
      out.push_back(it->path().string() + (it->is_regular_file() ? ":" + io::read_file(it->path()) : "/"));
  std::sort(out.begin(), out.end());
  return out;
}

json::Value index_of(const fs::path &live) { return *store::load_index(live); }

} // namespace

TEST_CASE("insert writes the record at its scope path, indexes it, and marks the source merged", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 3);
  auto rec = strategy_record("nvidia.b200.triton.toy-op.wide-loads-s01");
  fs::path src = stage(tmp.path, rec);
  std::string before = io::read_file(src);
  auto rep = commit(live, "insert", src);
  CHECK(rep.exit_code == 0);
  CHECK_THAT(rep.out, Catch::Contains("inserted \u2192 records/strategy/nvidia/blackwell/triton/toy-op/"
                                      "nvidia.b200.triton.toy-op.wide-loads-s01.json"));
  CHECK(json::parse_file(live / "records/strategy/nvidia/blackwell/triton/toy-op/"
                                "nvidia.b200.triton.toy-op.wide-loads-s01.json") == rec);
  auto index = index_of(live);
  CHECK(index.get("count").as_int() == 4);
  CHECK(index.get("records")[3].string_or("id") == "nvidia.b200.triton.toy-op.wide-loads-s01");
  CHECK(index.get("records")[3].get("title") == json::Value("Rows are read four bytes at a time."));
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  // The staged record is untouched (still schema-valid); the ledger says what happened.
  CHECK(io::read_file(src) == before);
  auto ledger = store::read_merged_marker(src);
  REQUIRE(ledger);
  CHECK(ledger->get("merges")[0].string_or("action") == "insert");
  // No generation is left behind.
  for (const auto &e : io::list_dir(live)) CHECK_FALSE(e.filename().string().starts_with(".otm-records-"));
}

TEST_CASE("insert refuses an id that exists in the index or anywhere on disk", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  // Same id as a seeded record but another scope: found through the index.
  auto dup = strategy_record("nvidia.b200.triton.seed-op.seed-01-s01");
  auto before = snapshot(live);
  auto rep = commit(live, "insert", stage(tmp.path, dup));
  CHECK(rep.exit_code == 1);
  CHECK_THAT(rep.out, Catch::Contains("REFUSED") &&
                          Catch::Contains("records/strategy/nvidia/blackwell/triton/seed-op/") &&
                          Catch::Contains("commit confirm"));
  CHECK(snapshot(live) == before);
  CHECK_FALSE(store::read_merged_marker(tmp.path / "nvidia.b200.triton.seed-op.seed-01-s01.json"));
  // A stray file with the id at the path the record would take, unknown to
  // the index, is found (one elsewhere is the index gate's to report).
  auto stray = strategy_record("nvidia.b200.triton.toy-op.stray-s01");
  io::write_file_atomic(live / "records" / record::record_relpath(stray), "{}\n");
  auto rep2 = commit(live, "insert", stage(tmp.path, stray));
  CHECK(rep2.exit_code == 1);
  CHECK_THAT(rep2.out, Catch::Contains("records/strategy/nvidia/blackwell/triton/toy-op/"));
}

TEST_CASE("every path-escape attempt is refused before anything is written", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  auto base = strategy_record("nvidia.b200.triton.toy-op.escape-s01");
  std::vector<json::Value> attempts;
  for (const char *fam : {"../../x", "a/b", "..", ".", "a\nb", "/etc", "a\\b", ".hidden", "a\x01z"})
    attempts.push_back(with_path(base, {"retrieval", "scope", "operator_family"}, fam));
  attempts.push_back(with_path(base, {"retrieval", "scope", "operator_family"}, std::string(201, 'a')));
  attempts.push_back(with_path(base, {"retrieval", "scope", "dsl"}, "../../../tmp"));
  attempts.push_back(with_path(base, {"retrieval", "scope", "vendor"}, ""));
  attempts.push_back(with_path(base, {"retrieval", "scope", "arch"}, "x/../../y"));
  attempts.push_back(with_path(base, {"type"}, "../strategy"));
  attempts.push_back(with_path(base, {"id"}, "../../outside"));
  attempts.push_back(with_path(base, {"id"}, "/tmp/abs"));
  auto before = snapshot(live);
  int n = 0;
  for (const auto &rec : attempts) {
    fs::path src = tmp.path / ("attempt-" + std::to_string(n++) + ".json");
    io::write_file_atomic(src, json::to_pretty(rec));
    for (const char *action : {"insert", "auto"}) {
      auto rep = commit(live, action, src);
      INFO(rec.get("retrieval").get("scope").string_or("operator_family") << " " << rec.string_or("id"));
      CHECK(rep.exit_code == 1);
      CHECK_THAT(rep.err, Catch::Contains("SCHEMA ERRORS") && Catch::Contains("layout:"));
      CHECK(snapshot(live) == before);
      CHECK_FALSE(io::is_regular_file(store::merged_marker_path(src)));
    }
  }
  CHECK_FALSE(fs::exists(tmp.path / "x"));
  CHECK_FALSE(fs::exists(tmp.path / "outside.json"));
}

TEST_CASE("a symbolic link on the way to a file it writes stops the commit", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  fs::create_directories(tmp.path / "elsewhere");
  fs::create_directories(live / "records" / "strategy" / "nvidia" / "blackwell" / "triton");
  fs::create_directory_symlink(tmp.path / "elsewhere",
                               live / "records" / "strategy" / "nvidia" / "blackwell" / "triton" / "toy-op");
  auto rep_fn = [&] {
    return commit(live, "insert", stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.l-s01")));
  };
  CHECK_THROWS_WITH(rep_fn(), Catch::Contains("symbolic link"));
  CHECK(io::list_dir(tmp.path / "elsewhere").empty());
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
}

TEST_CASE("confirm counts a pair once, completes the track, and re-ranks record and index", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  std::string target = "nvidia.b200.triton.seed-op.seed-00-s01";
  fs::path src = stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.again-s01"));
  auto r1 = commit(live, "confirm", src, target);
  CHECK(r1.exit_code == 0);
  CHECK_THAT(r1.out, Catch::Contains("confirmed:" + target + " (verified_effective=1)"));
  auto r2 = commit(live, "confirm", src, target);
  CHECK(r2.exit_code == 0);
  CHECK_THAT(r2.out, Catch::Contains("already counted, skipped"));
  fs::path tfile = live / "records/strategy/nvidia/blackwell/triton/seed-op" / (target + ".json");
  auto t = json::parse_file(tfile);
  CHECK(t.get("worth").get("track").get("counters").get("verified_effective").as_int() == 1);
  CHECK(t.get("worth").get("track").get("confirm_keys").size() == 1);
  // One confirmation moves the feedback term, so score and index entry change together.
  CHECK(t.get("worth").get("rank").get("score").as_number() != 0.5);
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  // Another incoming record is another confirmation.
  auto r3 = commit(live, "confirm", stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.third-s01")), target);
  CHECK_THAT(r3.out, Catch::Contains("verified_effective=2"));
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
}

TEST_CASE("confirm of a record without a track writes a schema-complete track", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 0);
  auto bare = strategy_record("nvidia.b200.triton.toy-op.bare-s01");
  json::Value worth = bare.get("worth");
  worth.erase("track");
  bare.set("worth", worth);
  REQUIRE(commit(live, "insert", stage(tmp.path, bare)).exit_code == 0);
  REQUIRE(commit(live, "confirm", stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.c-s01")),
                 "nvidia.b200.triton.toy-op.bare-s01")
              .exit_code == 0);
  auto t = json::parse_file(live /
                            "records/strategy/nvidia/blackwell/triton/toy-op/nvidia.b200.triton.toy-op.bare-s01.json");
  const auto &track = t.get("worth").get("track");
  for (const char *k : {"query_count", "served_count", "applied_count", "verified_effective", "verified_ineffective",
                        "fallback_served"})
    CHECK(track.get("counters").get(k).is_int());
  CHECK(track.get("prior").is_object());
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
}

TEST_CASE("confirm and conflict against a missing target refuse and do not mark the source", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  fs::path src = stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.lonely-s01"));
  auto before = snapshot(live);
  for (const char *action : {"confirm", "conflict"}) {
    auto rep = commit(live, action, src, "nvidia.b200.triton.toy-op.nobody-s01");
    CHECK(rep.exit_code == 1);
    CHECK_THAT(rep.out, Catch::Contains("not marked merged"));
    CHECK_FALSE(store::read_merged_marker(src));
    CHECK(snapshot(live) == before);
  }
  CHECK_THROWS_MATCHES(commit(live, "confirm", src), Error, test::of_kind(ErrorKind::Usage));
  auto self = commit(live, "confirm", stage(tmp.path, strategy_record("nvidia.b200.triton.seed-op.seed-00-s01")),
                     "nvidia.b200.triton.seed-op.seed-00-s01");
  CHECK(self.exit_code == 1);
  CHECK_THAT(self.out, Catch::Contains("cannot confirm itself"));
  CHECK(snapshot(live) == before);
  CHECK_THROWS_MATCHES(commit(live, "merge", src), Error, test::of_kind(ErrorKind::Usage));
}

TEST_CASE("conflict files carry the schema's fields and never overwrite each other", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  std::string target = "nvidia.b200.triton.seed-op.seed-00-s01";
  auto incoming = strategy_record("nvidia.b200.triton.toy-op.slower-s01", "k", -7.5);
  // A null gain on the incoming side must not break the reason text.
  incoming = with_path(incoming, {"worth", "gain"},
                       json::parse(R"({"basis": "qualitative", "kind": "performance", "pct": null, "metrics": []})"));
  fs::path src = stage(tmp.path, incoming);
  auto a = commit(live, "conflict", src, target);
  auto b = commit(live, "conflict", src, target);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  auto files = io::list_dir(live / "conflicts");
  REQUIRE(files.size() == 2);
  CHECK(files[0].filename() == "20260102_030405_nvidia.b200.triton.toy-op.slower-s01.2.json");
  CHECK(files[1].filename() == "20260102_030405_nvidia.b200.triton.toy-op.slower-s01.json");
  auto doc = json::parse_file(files[1]);
  for (const char *k : {"created", "existing_record_id", "incoming_record", "match_confidence", "conflict_reason",
                        "context", "resolution"})
    CHECK(doc.contains(k));
  CHECK(doc.get("incoming_record") == incoming);
  CHECK_THAT(doc.string_or("conflict_reason"), Catch::Contains("type=strategy gain=?%"));
  CHECK(doc.get("resolution").is_null());
  CHECK(store::read_merged_marker(src)->get("merges").size() == 2);
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
}

TEST_CASE("match lists same-scope candidates with the two-way any rule and exact episode keys", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 0);
  auto a = strategy_record("nvidia.b200.triton.toy-op.a-s01", "key-a");
  auto b = with_path(strategy_record("nvidia.b200.any.toy-op.b-s01", "key-b"), {"retrieval", "scope", "dsl"}, "any");
  auto c = with_path(strategy_record("nvidia.b200.cuda.toy-op.c-s01", "key-a"), {"retrieval", "scope", "dsl"}, "cuda");
  auto d = with_path(strategy_record("nvidia.b200.triton.other.d-s01", "key-a"),
                     {"retrieval", "scope", "operator_family"}, "other");
  for (const auto &r : {a, b, c, d}) REQUIRE(commit(live, "insert", stage(tmp.path, r)).exit_code == 0);
  auto ids = [](const json::Value &report) {
    std::vector<std::string> out;
    for (const auto &c : *report.get("candidates").as_array()) out.push_back(c.string_or("id"));
    return out;
  };
  auto incoming = strategy_record("nvidia.b200.triton.toy-op.new-s01", "key-a");
  fs::path src = stage(tmp.path, incoming);
  auto rep = admission::run_match(src.string(), live, admission::default_store_checks());
  REQUIRE(rep.exit_code == 0);
  auto j = json::parse(rep.out_text());
  CHECK(ids(j) == std::vector<std::string>{"nvidia.b200.any.toy-op.b-s01", "nvidia.b200.triton.toy-op.a-s01"});
  CHECK(j.get("episode_key_matches") == json::Value::strings({"nvidia.b200.triton.toy-op.a-s01"}));
  CHECK(j.get("incoming").string_or("gain_direction") == "positive");
  auto any_in = with_path(incoming, {"retrieval", "scope", "dsl"}, "any");
  auto rep2 = admission::run_match(stage(tmp.path / "any", any_in).string(), live, admission::default_store_checks());
  CHECK(ids(json::parse(rep2.out_text())).size() == 3);
  // Invalid: every error, exit 1.
  auto bad = with_path(with_path(incoming, {"schema"}, "clean-9"), {"retrieval", "scope", "operator_family"}, "../x");
  auto rep3 = admission::run_match(stage(tmp.path / "bad", bad).string(), live, admission::default_store_checks());
  CHECK(rep3.exit_code == 1);
  auto j3 = json::parse(rep3.out_text());
  CHECK(j3.string_or("status") == "schema_error");
  CHECK(j3.get("errors").size() == 2);
}

TEST_CASE("the auto policy inserts, confirms or flags by episode key and direction", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 0);
  auto first = strategy_record("nvidia.b200.triton.toy-op.first-s01", "key-a", 10.0);
  auto rep = commit(live, "auto", stage(tmp.path, first));
  CHECK_THAT(rep.out, Catch::StartsWith("auto: insert (no live record shares"));
  auto other_key = strategy_record("nvidia.b200.triton.toy-op.other-s01", "key-b", 4.0);
  CHECK_THAT(commit(live, "auto", stage(tmp.path, other_key)).out,
             Catch::StartsWith("auto: insert (1 same-scope candidate(s), none with the incoming episode_key"));
  auto same = strategy_record("nvidia.b200.triton.toy-op.same-s01", "key-a", 3.0);
  auto r2 = commit(live, "auto", stage(tmp.path, same));
  CHECK_THAT(r2.out, Catch::StartsWith("auto: confirm --target nvidia.b200.triton.toy-op.first-s01") &&
                         Catch::Contains("verified_effective=1"));
  auto opposite = strategy_record("nvidia.b200.triton.toy-op.opp-s01", "key-a", -3.0);
  auto r3 = commit(live, "auto", stage(tmp.path, opposite));
  CHECK_THAT(r3.out, Catch::StartsWith("auto: conflict --target nvidia.b200.triton.toy-op.first-s01") &&
                         Catch::Contains("conflict_flagged:"));
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
  auto anti = with_path(first, {"type"}, "anti-strategy");
  CHECK(admission::directions_contradict(first, anti));
  CHECK_FALSE(admission::directions_contradict(first, same));
  CHECK_FALSE(admission::directions_contradict(first, with_path(first, {"worth", "gain", "pct"}, 0.0)));
}

TEST_CASE("a commit removes generations a killed writer left behind", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  fs::create_directories(live / ".otm-records-next-99999" / "strategy");
  io::write_file_atomic(live / ".otm-records-next-99999" / "index.json", "{}");
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.after-s01"))).exit_code ==
          0);
  CHECK_FALSE(fs::exists(live / ".otm-records-next-99999"));
  CHECK(store_disagreements(live).empty());
  CHECK(store_gate_failures(live).empty());
}

TEST_CASE("an insert refuses to drop an unreadable or missing index", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  io::write_file_atomic(live / "records" / "index.json", "{broken");
  fs::path src = stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.x-s01"));
  CHECK_THROWS_WITH(commit(live, "insert", src), Catch::Contains("rebuild"));
  fs::remove(live / "records" / "index.json");
  CHECK_THROWS_WITH(commit(live, "insert", src), Catch::Contains("missing although records exist"));
  CHECK_FALSE(store::read_merged_marker(src));
  // An empty store starts its index.
  fs::path empty = tmp.path / "empty";
  fs::create_directories(empty);
  REQUIRE(commit(empty, "insert", src).exit_code == 0);
  CHECK(store_disagreements(empty).empty());
  CHECK(index_of(empty).get("count").as_int() == 1);
}

TEST_CASE("re-running an insert whose merged marker was lost succeeds without a change", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  fs::path src = stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.twice-s01"));
  REQUIRE(commit(live, "insert", src).exit_code == 0);
  fs::remove(store::merged_marker_path(src));
  auto before = snapshot(live);
  auto rep = commit(live, "insert", src);
  CHECK(rep.exit_code == 0);
  CHECK_THAT(rep.out, Catch::Contains("already present and identical"));
  CHECK(snapshot(live) == before);
  CHECK(store::read_merged_marker(src));
}

TEST_CASE("an anti-strategy without an established fact is refused with the gate's message", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  auto anti = with_path(strategy_record("nvidia.b200.triton.toy-op.nofact-t01"), {"type"}, "anti-strategy");
  fs::path src = stage(tmp.path, anti);
  auto before = snapshot(live);
  auto rep = commit(live, "insert", src);
  CHECK(rep.exit_code == 1);
  CHECK_THAT(rep.err, Catch::Contains("SCHEMA ERRORS") && Catch::Contains("established-fact: "));
  CHECK(snapshot(live) == before);
}

TEST_CASE("a commit stopped before its index reads as not made, and the next writer rolls it back", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  auto before = snapshot(live);
  std::string seed = "records/strategy/nvidia/blackwell/triton/seed-op/nvidia.b200.triton.seed-op.seed-00-s01.json";
  std::string fresh = "records/strategy/nvidia/blackwell/triton/toy-op/nvidia.b200.triton.toy-op.cut-s01.json";
  std::string old_seed = io::read_file(live / seed);
  // What a writer killed after its record files and before its index
  // leaves: the description, a new file, a rewritten one, the old index.
  store::PendingCommit pending;
  std::string new_seed = old_seed + " ";
  std::string new_file = json::to_pretty(strategy_record("nvidia.b200.triton.toy-op.cut-s01"));
  pending.files.push_back({seed, text::sha256_hex(new_seed), old_seed});
  pending.files.push_back({fresh, text::sha256_hex(new_file), std::nullopt});
  pending.index_sha256 = text::sha256_hex("the index it never wrote");
  io::write_file_atomic(store::pending_commit_file(live), json::to_line(store::to_json(pending)));
  io::write_file_atomic(live / seed, new_seed);
  io::write_file_atomic(live / fresh, new_file);
  // Readers see the store as it was: the index and the files agree.
  CHECK(store_disagreements(live).empty());
  CHECK(store::load_records(live).size() == 2);
  CHECK(store_gate_failures(live).empty());
  // The next commit rolls it back first, then does its own work.
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.next-s01"))).exit_code ==
          0);
  CHECK_FALSE(fs::exists(store::pending_commit_file(live)));
  CHECK_FALSE(fs::exists(live / fresh));
  CHECK(io::read_file(live / seed) == old_seed);
  CHECK(store::load_records(live).size() == 3);
  CHECK(store_disagreements(live).empty());
  CHECK(snapshot(live) != before);
}

TEST_CASE("a commit that reached its index reads as made", "[admission]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  REQUIRE(commit(live, "insert", stage(tmp.path, strategy_record("nvidia.b200.triton.toy-op.done-s01"))).exit_code ==
          0);
  // A description left after the index was written (killed before removing it).
  std::string fresh = "records/strategy/nvidia/blackwell/triton/toy-op/nvidia.b200.triton.toy-op.done-s01.json";
  store::PendingCommit pending;
  pending.files.push_back({fresh, text::sha256_hex(io::read_file(live / fresh)), std::nullopt});
  pending.index_sha256 = text::sha256_hex(io::read_file(live / "records" / "index.json"));
  io::write_file_atomic(store::pending_commit_file(live), json::to_line(store::to_json(pending)));
  CHECK(store::load_records(live).size() == 2);
  CHECK(store_disagreements(live).empty());
  admission::recover_interrupted_commit(live);
  CHECK_FALSE(fs::exists(store::pending_commit_file(live)));
  CHECK(fs::exists(live / fresh));
  CHECK(store_disagreements(live).empty());
}
