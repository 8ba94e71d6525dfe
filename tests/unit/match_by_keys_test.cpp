// `match` by the keys index (store/index_keys.hpp): each candidate's summary
// is copied from the keys (or the journal line) instead of read from its
// record, and the line it prints is the one the spec's reading of every
// candidate's record gives, byte for byte, after every kind of change to the
// store: inserts, re-ranking confirms, compaction, a stale or old-format
// keys index, a journal line without a summary, a torn journal tail, and on
// the real store.
#include <catch2/catch.hpp>

#include <map>
#include <set>

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
#include "text/sha256.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

namespace {

// A store as the spec's match reads it: the whole index, and each entry's
// record (none when it cannot be read).
struct ReadStore {
  std::optional<json::Value> index;
  std::map<std::string, std::optional<json::Value>> records; // by path
};
ReadStore read_store(const fs::path &live) {
  ReadStore s;
  s.index = store::load_index(live);
  if (s.index)
    for (const auto &e : *s.index->get("records").as_array()) {
      auto &rec = s.records[e.string_or("path")];
      try {
        rec = store::read_record(live, e.string_or("path"));
      } catch (const std::exception &) {
        rec.reset();
      }
    }
  return s;
}

// The spec's match (wiki-gate.md §3), as otm did it before the keys held
// summaries: the whole index, filtered by scope, each candidate's record
// read (a missing one dropped) and summarised, in id order (the spec's
// "index order (sorted by id)"; the real store's index.json is not sorted).
std::string reference_match(const json::Value &incoming, const ReadStore &read) {
  const auto &scope = incoming.get("retrieval").get("scope");
  std::string key = incoming.string_or("episode_key");
  std::vector<std::pair<std::string, const json::Value *>> found;
  if (read.index)
    for (const auto &e : *read.index->get("records").as_array()) {
      if (!admission::scope_matches(scope, e.get("retrieval").get("scope"))) continue;
      if (const auto &rec = read.records.at(e.string_or("path"))) found.emplace_back(e.string_or("id"), &*rec);
    }
  std::stable_sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  json::Value candidates = json::Value::array();
  std::vector<std::string> matches;
  for (const auto &[id, rec] : found) {
    if (!key.empty() && rec->string_or("episode_key") == key) matches.push_back(id);
    candidates.push_back(store::candidate_summary(*rec));
  }
  json::Value out = json::Value::object();
  out.set("status", "ok");
  out.set("incoming", store::candidate_summary(incoming));
  out.set("candidates_count", static_cast<long long>(candidates.size()));
  out.set("episode_key_matches", json::Value::strings(matches));
  out.set("candidates", candidates);
  return json::to_line(out);
}
std::string reference_match(const json::Value &incoming, const fs::path &live) {
  return reference_match(incoming, read_store(live));
}

std::string keys_match(const json::Value &incoming, const fs::path &live) {
  return admission::match_report(incoming, admission::find_candidates(incoming, live));
}

std::string id_of(int i) { return "nvidia.b200.triton.toy-op.k" + std::to_string(i) + "-s01"; }

// Incoming records across the scope rules: the toy scope, dsl "any", no
// operator_family, another vendor; one shares an episode key.
std::vector<json::Value> probes() {
  auto base = strategy_record("nvidia.b200.triton.toy-op.probe-s01");
  return {base,
          with_path(base, {"retrieval", "scope", "dsl"}, "any"),
          with_path(base, {"retrieval", "scope", "operator_family"}, nullptr),
          with_path(base, {"retrieval", "scope", "operator_family"}, "seed-op"),
          with_path(base, {"retrieval", "scope", "vendor"}, "amd"),
          with_path(base, {"episode_key"}, "blackwell|triton|toy-op|k_2|operator")};
}

// What every probe matches, by the keys and by the records, must agree.
std::vector<std::string> match_differences(const fs::path &live) {
  std::vector<std::string> out;
  for (const auto &p : probes())
    if (keys_match(p, live) != reference_match(p, live)) out.push_back(keys_match(p, live));
  return out;
}

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

// A record of the toy scope with its own episode key and gain.
json::Value toy_record(int i, double pct = 0) {
  auto r = strategy_record(id_of(i), "blackwell|triton|toy-op|k_" + std::to_string(i) + "|operator",
                           pct != 0 ? pct : 3.0 + i);
  if (i % 3 == 1) r = with_path(r, {"payload", "change"}, "Read rows with \"wide\"\tloads: 100% of them, \u00e9.");
  if (i % 3 == 2) r = with_path(r, {"retrieval", "scope", "dsl"}, "any");
  return r;
}

} // namespace

TEST_CASE("match copies each candidate's summary from the keys and prints what reading the records prints",
          "[admission][match]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 3);
  CHECK(match_differences(live).empty());
  config::Limits limits;
  limits.max_journal_entries = 5;
  // Inserts: journal lines with summaries.
  for (int i = 0; i < 4; ++i) {
    REQUIRE(commit(live, "insert", stage(tmp.path, toy_record(i)), std::nullopt, limits).exit_code == 0);
    CHECK(match_differences(live).empty());
  }
  REQUIRE(store::read_journal(live).lines.size() == 4);
  CHECK(store_disagreements(live).empty());
  // A confirm that re-ranks a journal entry: its new line keeps the summary.
  REQUIRE(commit(live, "confirm", stage(tmp.path / "c", toy_record(20)), id_of(1), limits).exit_code == 0);
  // That was the fifth line: compacted, the new keys written from the old
  // keys' summaries.
  REQUIRE_FALSE(fs::exists(store::journal_file(live)));
  CHECK(match_differences(live).empty());
  CHECK(store_disagreements(live).empty());
  // A confirm that re-ranks an entry of the base: its entry read where the
  // keys say it is, only worth_score and tier changed.
  json::Value before;
  json::Value folded = *store::load_index(live);
  for (const auto &e : *folded.get("records").as_array())
    if (e.string_or("id") == id_of(2)) before = e;
  REQUIRE(before.is_object());
  REQUIRE(commit(live, "confirm", stage(tmp.path / "d", toy_record(21)), id_of(2), limits).exit_code == 0);
  auto journal = store::read_journal(live);
  REQUIRE(journal.lines.size() == 1);
  json::Value after = json::parse(journal.entry_json(journal.lines[0]));
  CHECK_FALSE(after == before);
  before.set("worth_score", after.get("worth_score"));
  before.set("tier", after.get("tier"));
  CHECK(after == before);
  CHECK(match_differences(live).empty());
  CHECK(store_disagreements(live).empty());
  // A torn journal tail: neither its keys nor its summary exist.
  auto line = store::journal_line(admission::live_index_entry(toy_record(30), "records/x/y.json"),
                                  store::candidate_summary_text(toy_record(30)));
  io::write_file_atomic(store::journal_file(live),
                        io::read_file(store::journal_file(live)) + line.text.substr(0, line.text.size() - 2));
  CHECK(match_differences(live).empty());
  CHECK(store_disagreements(live).empty());
  // `commit auto` decides from the summaries: the same episode key the same
  // way is a confirm, the opposite way a conflict.
  auto same = with_path(toy_record(3), {"id"}, "nvidia.b200.triton.toy-op.again-s01");
  auto rep_same = commit(live, "auto", stage(tmp.path / "e", same));
  CHECK_THAT(rep_same.out, Catch::Contains("auto: confirm --target " + id_of(3)));
  auto opposite = with_path(toy_record(3, -4.0), {"id"}, "nvidia.b200.triton.toy-op.other-s01");
  auto rep = commit(live, "auto", stage(tmp.path / "f", opposite));
  INFO(rep.err);
  CHECK_THAT(rep.out, Catch::Contains("auto: conflict --target " + id_of(3)));
}

TEST_CASE("an old-format keys index is rebuilt and a journal line without a summary is read from its record",
          "[admission][match]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 3);
  for (int i = 0; i < 3; ++i) REQUIRE(commit(live, "insert", stage(tmp.path, toy_record(i))).exit_code == 0);
  // The keys as otm wrote them before summaries (format 1), stamped with
  // this very index.json: not used, rebuilt.
  auto keys_file = store::keys_cache_file(live);
  REQUIRE(io::read_file(keys_file).starts_with("otm-index-keys 2 "));
  std::string v1 = io::read_file(keys_file);
  v1.replace(0, std::string("otm-index-keys 2").size(), "otm-index-keys 1");
  io::write_file_atomic(keys_file, v1);
  CHECK(match_differences(live).empty());
  CHECK(io::read_file(keys_file).starts_with("otm-index-keys 2 "));
  CHECK(store_disagreements(live).empty());

  // The journal as otm wrote it before summaries: key fields and entry.
  auto journal = store::read_journal(live);
  std::string old;
  for (const auto &l : journal.lines) {
    std::string payload = std::string(journal.keys(l)) + "\t" + std::string(journal.entry_json(l));
    old += std::to_string(payload.size()) + " " + text::sha256_hex(payload) + " " + payload + "\n";
  }
  io::write_file_atomic(store::journal_file(live), old);
  auto reread = store::read_journal(live);
  REQUIRE(reread.lines.size() == 3);
  for (const auto &l : reread.lines) CHECK(reread.summary(l).empty());
  CHECK(store::KeysIndex::open(live).summary_of(id_of(1)) == std::optional<std::string_view>(""));
  CHECK(match_differences(live).empty());
  // Such an entry whose record is gone is dropped, as the spec says.
  fs::path gone = live / *store::KeysIndex::open(live).path_of(id_of(0));
  std::string kept = io::read_file(gone);
  fs::remove(gone);
  CHECK(match_differences(live).empty());
  CHECK(keys_match(toy_record(5), live).find(id_of(0)) == std::string::npos);
  io::write_file_atomic(gone, kept);
  // A compaction gives them summaries, read from their records once.
  REQUIRE(admission::compact_index(live, {}));
  auto compacted = store::KeysIndex::open(live);
  for (int i = 0; i < 3; ++i) {
    auto s = compacted.summary_of(id_of(i));
    REQUIRE(s);
    CHECK(*s == store::candidate_summary_text(toy_record(i)));
  }
  CHECK(match_differences(live).empty());
  CHECK(store_disagreements(live).empty());
}

TEST_CASE("a stale keys index is rebuilt with every record's summary, an unreadable record has none",
          "[admission][match]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  for (int i = 0; i < 3; ++i) REQUIRE(commit(live, "insert", stage(tmp.path, toy_record(i))).exit_code == 0);
  REQUIRE(admission::compact_index(live, {}));
  auto keys = store::KeysIndex::open(live);
  // index.json replaced behind the keys (a checkout): the place the keys
  // name is not read from a file they were not built from.
  auto text = io::read_file(live / "records" / "index.json");
  io::write_file_atomic(live / "records" / "index.json", text);
  CHECK_FALSE(keys.entry_text(id_of(1)));
  // A record that cannot be read when the keys are rebuilt has no summary:
  // match reads it again (and drops it while it is missing).
  fs::path broken = live / *keys.path_of(id_of(2));
  std::string kept = io::read_file(broken);
  io::write_file_atomic(broken, "{not json");
  auto rebuilt = store::KeysIndex::open(live);
  CHECK(rebuilt.entry_text(id_of(1)));
  CHECK(rebuilt.summary_of(id_of(2)) == std::optional<std::string_view>(""));
  CHECK(rebuilt.summary_of(id_of(1)) == std::optional<std::string_view>(store::candidate_summary_text(toy_record(1))));
  CHECK(match_differences(live).empty());
  io::write_file_atomic(broken, kept);
  CHECK(match_differences(live).empty());
  CHECK(keys_match(toy_record(2), live).find("\"id\": \"" + id_of(2) + "\"") != std::string::npos);
}

TEST_CASE("match trusts the keys: a record file removed behind admission's back is still listed",
          "[admission][match]") {
  // docs/differences.md: match reads no record file, so it does not drop
  // the entry whose file is missing (the index gate reports that store).
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 1);
  REQUIRE(commit(live, "insert", stage(tmp.path, toy_record(0))).exit_code == 0);
  fs::remove(live / *store::KeysIndex::open(live).path_of(id_of(0)));
  auto out = keys_match(toy_record(5), live);
  CHECK_THAT(out, Catch::Contains("\"id\": \"" + id_of(0) + "\"") && Catch::Contains("\"candidates_count\": 1"));
}

TEST_CASE("on the real store, match by the keys prints what reading the records prints", "[admission][match]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  TempDir tmp;
  fs::path live = tmp.path / "live";
  fs::copy(wiki / "kernel_wiki", live, fs::copy_options::recursive);
  // One incoming record per scope the store holds, and each with dsl "any"
  // and without operator_family (the wider scopes).
  std::set<std::string> seen;
  int compared = 0;
  ReadStore read = read_store(live);
  for (const auto &r : store::load_records(live)) {
    REQUIRE(r.parse_error.empty());
    const auto &scope = r.record.get("retrieval").get("scope");
    if (!seen.insert(json::to_line(scope.get("vendor")) + json::to_line(scope.get("arch")) +
                     json::to_line(scope.get("dsl")) + json::to_line(scope.get("operator_family")))
             .second)
      continue;
    for (const auto &in : {r.record, with_path(r.record, {"retrieval", "scope", "dsl"}, "any"),
                           with_path(r.record, {"retrieval", "scope", "operator_family"}, nullptr)}) {
      INFO(r.relpath);
      CHECK(keys_match(in, live) == reference_match(in, read));
      ++compared;
    }
  }
  CHECK(compared > 30);
}

TEST_CASE("a rebuild of the keys index refuses every index load_index refuses", "[admission][match]") {
  // The rebuild checks the index's skeleton and parses each part on its
  // own (store/index_keys.cpp); a part's nesting counts the levels around it.
  auto nested = [](std::size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); };
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"a broken scalar in an entry", R"({"records": [{"id": tru}]})"},
      {"an entry that is one", R"({"records": [tru]})"},
      {"a member that is one", R"({"records": [{"id": "a"}], "count": 01})"},
      {"no comma between entries", R"({"records": [{"id": "a"} {"id": "b"}]})"},
      {"a comma before the brace", R"({"records": [], })"},
      {"text after the object", R"({"records": [{"id": "a"}]} x)"},
      {"cut short", R"({"records": [{"id": "a"})"},
      {"a bad escape in a name", R"({"rec\qords": [], "records": []})"},
      {"a control byte in a name", "{\"a\x01\": 1, \"records\": []}"},
      {"a control byte in a string of an entry", "{\"records\": [{\"id\": \"a\tb\"}]}"},
      {"not UTF-8", "{\"records\": [{\"id\": \"\xff\"}]}"},
      {"nested too deep in an entry", R"({"records": [)" + nested(1023) + "]}"},
      {"nested too deep in a member", R"({"a": )" + nested(1024) + R"(, "records": []})"}};
  for (const auto &[why, text] : refused) {
    INFO(why);
    TempDir tmp;
    fs::path live = tmp.path / "live";
    io::write_file_atomic(live / "records" / "index.json", text);
    CHECK_THROWS_AS(store::load_index(live), json::ParseError);
    CHECK_THROWS_AS(store::KeysIndex::open(live), json::ParseError);
    CHECK_FALSE(fs::exists(store::keys_cache_file(live)));
  }
  // Entries that are not objects, and a name written with an escape: read
  // by both (an entry without an id has no row to find).
  TempDir tmp;
  fs::path live = tmp.path / "live";
  io::write_file_atomic(live / "records" / "index.json",
                        R"({"rec\u006frds": [1, "s", null, [], {"id": "a", "path": "p"}], "count": 5})");
  CHECK(store::load_index(live)->get("records").as_array()->size() == 5);
  CHECK(store::KeysIndex::open(live).path_of("a") == std::optional<std::string>("p"));
}
