#include <catch2/catch.hpp>

#include "error_kind.hpp"
#include "packets_fixture.hpp"
#include "partition/inputs.hpp"
#include "partition/partition.hpp"
#include "partition/pitfall.hpp"
#include "partition/technique.hpp"
#include "record/leak_shapes.hpp"
#include "test_paths.hpp"

using namespace otm;

namespace {

partition::Sources sources(const testing::SyntheticTrace &t) {
  partition::Sources s;
  s.ladder = (t.workspace / "work" / "ladder.jsonl").string();
  s.meta = t.workspace / "work" / "meta.json";
  s.profiles = t.workspace / "work" / "profiles.jsonl";
  s.staging = t.store;
  s.trace = t.trace;
  return s;
}

std::vector<std::string> column(const std::vector<json::Value> &segs, const char *key) {
  std::vector<std::string> out;
  for (const auto &s : segs) out.push_back(s.get(key).is_string() ? s.string_or(key) : s.get(key).python_str());
  return out;
}

void add_record(const std::filesystem::path &store, const std::string &id, const std::string &source,
                const std::string &version, const std::string &family = "fused-softmax-h4096") {
  json::Value rec = json::parse(R"({"type": "strategy", "retrieval": {"scope": {}}, "evidence": {"raw": {}}})");
  rec.set("id", id);
  json::Value scope = json::Value::object();
  scope.set("operator_family", family);
  json::Value retrieval = json::Value::object();
  retrieval.set("scope", scope);
  rec.set("retrieval", retrieval);
  json::Value raw = json::Value::object();
  raw.set("source_repo", source);
  raw.set("version", version);
  json::Value ev = json::Value::object();
  ev.set("raw", raw);
  rec.set("evidence", ev);
  io::write_file_atomic(store / "records" / "strategy" / (id + ".json"), json::to_pretty(rec));
}

} // namespace

TEST_CASE("slugify and strip_boilerplate follow the spec's examples", "[partition]") {
  CHECK(partition::strip_boilerplate("reverted (flat-within-noise, +0.04%) - dead-end recorded") == "");
  CHECK(partition::strip_boilerplate("committed (+3.2%)") == "");
  CHECK(partition::strip_boilerplate("v12: reverted \xE2\x80\x94 padding the fft size to 2^k was 3x slower") ==
        "v12: \xE2\x80\x94 padding the fft size to 2^k was 3x slower");
  // The hex rule needs a letter and a digit in either case (a departure):
  // 1234567 is a number, DEADBEEF a word, deadbeef1 and ABC1234 hashes.
  // otm: `v3.1` would read `v3-1`, a version id in a slug; it loses its `v`.
  CHECK(partition::slugify("v12 deadbeef1 Foo v3.1 1234567 DEADBEEF") == "foo-3-1-1234567-deadbeef");
  CHECK(partition::slugify("ABC1234 tuned") == "tuned");
  CHECK(partition::slugify("") == "unnamed");
  CHECK(partition::slugify(std::string(60, 'a') + " b").size() == 48);
  CHECK(partition::slugify("aaaa-bbbb", 5) == "aaaa");
}

TEST_CASE("both pitfall vintages normalise to the older triple", "[partition]") {
  auto newer = json::parse(R"({"error_type": "E", "error_message": "loads fault on odd pitches",
     "root_cause": "alignment.", "fix_applied": "pad", "lesson": "check first"})");
  auto t = partition::pitfall_text(newer);
  CHECK(t.text == "loads fault on odd pitches. alignment. check first");
  CHECK(t.fix == std::optional<std::string>("pad"));
  auto older = json::parse(R"({"pitfall": "x spills.", "explanation": "too many regs", "fix": ""})");
  auto o = partition::pitfall_text(older);
  CHECK(o.text == "x spills. too many regs");
  CHECK_FALSE(o.fix);
  CHECK(partition::pitfall_text(json::Value("  bare string ")).text == "bare string");
  CHECK(partition::pitfall_text(json::Value()).text.empty());
}

TEST_CASE("partition cuts the spec's segments in order with ids and episode keys", "[partition]") {
  testing::SyntheticTrace t("partition");
  auto in = partition::load_inputs(sources(t));
  auto r = partition::run(in);
  CHECK(column(r.segments, "seg_id") ==
        std::vector<std::string>{"strategy-v1", "strategy-v3", "strategy-v4", "strategy-v5", "anti-v2-01", "anti-v2-02",
                                 "anti-v6-01", "pitfall-v1-01", "pitfall-v7-02", "refk-final", "refk-v4"});
  CHECK(column(r.segments, "disc") == std::vector<std::string>{"1", "2", "3", "4", "1", "2", "3", "4", "5", "1", "2"});
  const auto &s1 = r.segments[0];
  CHECK(s1.string_or("id") ==
        "nvidia.b200.triton.fused-softmax-h4096.vectorized-the-row-loads-to-128-bit-so-each-thre-s01");
  CHECK(s1.get("builds_on").string_or("version") == "v0");
  CHECK(s1.get("builds_on").get("is_baseline") == json::Value(true));
  CHECK(s1.get("improve_pct") == json::Value(12.0));
  CHECK(s1.get("ncu_dirs").size() == 1);
  CHECK(r.segments[3].string_or("seg_kind") == "milestone-final");
  CHECK(r.segments[3].get("improve_pct").is_null());
  CHECK(r.segments[3].get("builds_on").string_or("version") == "v4");
  const auto &a1 = r.segments[4];
  CHECK(a1.string_or("split_by") == "mechanical");
  CHECK(a1.string_or("fact_precheck") == "ok");
  CHECK(a1.string_or("id").find("nvidia.b200.triton.softmax.anti.") == 0);
  CHECK(a1.string_or("episode_key").find("blackwell|triton|fused-softmax-h4096|") == 0);
  CHECK(r.segments[6].string_or("split_by") == "agent");
  CHECK(r.segments[6].get("deadend_text").is_null());
  CHECK(r.segments[6].string_or("technique").find("tried-splitting-the-reduction") == 0);
  // The newer pitfall vintage is a segment, with its fix.
  CHECK(r.segments[7].string_or("deadend_text").find("128-bit loads fault") == 0);
  CHECK(r.segments[7].string_or("pitfall_fix") == "pad the row pitch to 8 elements");
  CHECK(r.segments[8].string_or("seg_id") == "pitfall-v7-02"); // counts the skipped entry
  CHECK(r.segments[9].string_or("version") == "v5");
  CHECK(r.segments[10].string_or("kernel_file") == "versions/kernel_v4.py");
  CHECK(r.segments[10].string_or("technique") == "reference-impl-milestone2");
  CHECK(r.comparable);
  CHECK(r.seeds.empty());
  auto md = partition::report(in, r);
  CHECK(md.find("# Partition: fused_softmax_h4096") == 0);
  CHECK(md.find("| **total** | **11** | |") != std::string::npos);
  CHECK(md.find("namespace empty") != std::string::npos);
  CHECK(md.find("| v1 | milestone | 88.00 | 12.00% | triton |") != std::string::npos);
  CHECK(md.find("| under 1.5% | 1 |") != std::string::npos);
}

TEST_CASE("the final mega milestone yields one reference kernel, not two", "[partition]") {
  testing::SyntheticTrace t("partition-mega-final");
  auto in = partition::load_inputs(sources(t));
  in.rows.erase(in.rows.begin() + 5); // drop the final: v4 (mega, with a snapshot) is the last milestone
  auto r = partition::run(in);
  std::vector<std::string> refk;
  for (const auto &s : r.segments)
    if (s.string_or("record_type") == "reference-kernel") refk.push_back(s.string_or("seg_id"));
  CHECK(refk == std::vector<std::string>{"refk-final"});
}

TEST_CASE("ids are numbered above the stores and handed back to the same source version", "[partition]") {
  testing::SyntheticTrace t("partition-ids");
  // A record of another trace of the same operator, staged beside this one.
  add_record(t.store, "nvidia.b200.triton.fused-softmax-h4096.other-technique-s07", "kernel_opt_002_other", "v9");
  // An unrelated operator whose id merely contains the slug text: not counted.
  add_record(t.store, "nvidia.b200.triton.fused-softmax-h4096-big.x-s40", "kernel_opt_003", "v1", "other");
  auto first = partition::run(partition::load_inputs(sources(t)));
  CHECK(first.seeds == std::map<char, int>{{'s', 7}});
  CHECK(first.segments[0].string_or("id").ends_with("-s08"));
  // The v3 strategy gets distilled and merged: a re-run keeps its id.
  std::string v3_id = first.segments[1].string_or("id");
  auto live = t.root / "live";
  add_record(live, v3_id, "kernel_opt_001_example_fused_softmax_h4096", "v3");
  auto src = sources(t);
  src.live = live;
  auto second = partition::run(partition::load_inputs(src));
  CHECK(second.segments[1].string_or("id") == v3_id);
  CHECK(second.reused == std::vector<std::string>{v3_id});
  CHECK(second.segments[0].string_or("id") == first.segments[0].string_or("id"));
  CHECK(second.segments[2].string_or("id").ends_with("-s10"));
  // The live store holds the operator from this trace only: still comparable.
  CHECK(second.comparable);
}

TEST_CASE("partition refuses duplicate ids and ids already live", "[partition]") {
  testing::SyntheticTrace t("partition-refuse");
  auto in = partition::load_inputs(sources(t));
  auto dup = in;
  dup.rows.push_back(dup.rows[1]); // v1 twice
  CHECK_THROWS_MATCHES(partition::run(dup), Error, test::of_kind(ErrorKind::NegativeVerdict));
  auto r = partition::run(in);
  auto clash = in;
  clash.live_ids.push_back(r.segments[2].string_or("id"));
  CHECK_THROWS_WITH(partition::run(clash), Catch::Contains(r.segments[2].string_or("id")));
}

TEST_CASE("partition against a copy of the real live store", "[partition][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  std::filesystem::path shared = wiki / "kernel_wiki";
  testing::SyntheticTrace t("partition-live");
  auto live = t.root / "live";
  std::filesystem::copy(shared, live, std::filesystem::copy_options::recursive);
  // Put this operator into the copy at known maxima through its index.
  auto index = json::parse_file(live / "records" / "index.json");
  auto *records = index.find("records")->as_array();
  std::size_t real = records->size();
  REQUIRE(real > 800);
  for (const char *id :
       {"nvidia.b200.triton.fused-softmax-h4096.older-idea-s12", "nvidia.b200.triton.softmax.anti.older-failure-t31"}) {
    add_record(live, id, "kernel_opt_009_elsewhere", "v2");
    json::Value e = json::Value::object();
    e.set("id", id);
    e.set("type", "strategy");
    e.set("path", std::string("records/strategy/") + id + ".json");
    e.set("retrieval", json::parse(R"({"scope": {"operator_family": "fused-softmax-h4096"}})"));
    records->push_back(e);
  }
  io::write_file_atomic(live / "records" / "index.json", json::to_pretty(index));
  auto src = sources(t);
  src.live = live;
  auto in = partition::load_inputs(src);
  CHECK(in.live_ids.size() == real + 2);
  auto r = partition::run(in);
  CHECK(r.seeds == std::map<char, int>{{'s', 12}, {'t', 31}});
  CHECK(r.segments[0].string_or("id").ends_with("-s13"));
  CHECK(r.segments[4].string_or("id").ends_with("-t32"));
  CHECK_FALSE(r.comparable);
  CHECK(r.other_sources == std::vector<std::string>{"kernel_opt_009_elsewhere"});
  auto md = partition::report(in, r);
  CHECK(md.find("`s`>12, `t`>31") != std::string::npos);
  CHECK(md.find("**False**") != std::string::npos);
}

TEST_CASE("the previous run's ids survive a partial merge and a second trace", "[partition]") {
  testing::SyntheticTrace t("partition-previous");
  auto src = sources(t);
  auto first = partition::run(partition::load_inputs(src));
  std::string previous;
  for (const auto &s : first.segments) previous += json::to_line(s) + "\n";
  io::write_file_atomic(t.workspace / "work" / "segments.jsonl", previous);
  src.previous = t.workspace / "work" / "segments.jsonl";
  // Another trace of the operator is staged meanwhile, numbering above nothing
  // (it was partitioned before this one reached a store).
  add_record(t.store, "nvidia.b200.triton.fused-softmax-h4096.foreign-s02", "kernel_opt_002_other", "v4");
  auto second = partition::run(partition::load_inputs(src));
  REQUIRE(second.segments.size() == first.segments.size());
  // The foreign s02 is another id string: nothing moves.
  CHECK(second.seeds == std::map<char, int>{{'s', 2}});
  for (std::size_t i = 0; i < first.segments.size(); ++i)
    CHECK(second.segments[i].string_or("id") == first.segments[i].string_or("id"));
  // A foreign record that took one of this run's exact ids pushes only that
  // segment above every number in use.
  std::string taken = first.segments[1].string_or("id");
  add_record(t.store, taken, "kernel_opt_002_other", "v8");
  auto third = partition::run(partition::load_inputs(src));
  for (std::size_t i = 0; i < first.segments.size(); ++i) {
    if (i == 1)
      CHECK(third.segments[i].string_or("id").ends_with("-s05"));
    else
      CHECK(third.segments[i].string_or("id") == first.segments[i].string_or("id"));
  }
}

TEST_CASE("slugs keep a PTX vector width and never hold a version id (issue 10)", "[partition][issue10]") {
  auto slug = partition::slugify("v7: ld.global.nc.v4 row loads, not v6's");
  CHECK(slug == "ld-global-nc-v4-row-loads-not-s");
  CHECK(record::find_leaks(slug, true).empty());
  CHECK(record::find_leaks("nvidia.b200.triton.softmax." + slug + "-s01", true).empty());
  CHECK(partition::slugify("vec4 loads with v4 float lanes") == "vec4-loads-with-v4-float-lanes");
  CHECK(record::find_leaks(partition::slugify("st.global.v2.f32 stores v12.json"), true).empty());
}

TEST_CASE("one anti-strategy segment per failed lever, naming its accounts and a later win (issue 25)",
          "[partition][issue25]") {
  testing::SyntheticTrace t("partition-levers");
  auto in = partition::load_inputs(sources(t));
  // v2's third dead-end item and v7's curated pitfall are one lever at one
  // setting (num_warps 16), named differently; v4 later kept it.
  for (auto &row : in.rows) {
    std::string v = row.string_or("version");
    if (v == "v2")
      row.set("deadend_items", json::Value::strings({"shared-memory staging of the row is slower because the tile no "
                                                     "longer fits in one bank set",
                                                     "16 warps per program leave too few registers per thread"}));
    if (v == "v4") row.set("action_description", "Persistent kernel with 2-stage pipelining and num_warps=16.");
  }
  auto r = partition::run(in);
  std::vector<const json::Value *> warps;
  for (const auto &s : r.segments)
    if (s.string_or("record_type") == "anti-strategy" && s.get("occurrences").size() == 2) warps.push_back(&s);
  REQUIRE(warps.size() == 1);
  const auto &seg = *warps.front();
  // The curated pitfall speaks for the lever over a later list item.
  CHECK(seg.string_or("seg_id") == "pitfall-v7-02");
  CHECK(seg.get("occurrences")[0].string_or("version") == "v2");
  CHECK(seg.get("occurrences")[1].string_or("version") == "v7");
  REQUIRE(seg.get("lever_settings").size() == 1);
  CHECK(seg.get("lever_settings")[0].string_or("lever") == "num-warps-tuning");
  CHECK(seg.get("lever_settings")[0].string_or("value") == "16");
  REQUIRE(seg.get("kept_in_the_run").size() == 1);
  CHECK(seg.get("kept_in_the_run")[0].string_or("version") == "v4");
  // Every other step whose change states the same setting, whatever its
  // verdict (the packet asks which of them passed their correctness check).
  REQUIRE(seg.get("tried_in_the_run").size() == 1);
  CHECK(seg.get("tried_in_the_run")[0] == json::Value("v4"));
  CHECK(r.merged_occurrences == 1);
  for (const auto &s : r.segments) CHECK(s.string_or("seg_id") != "anti-v2-02");
  // v1's pitfall ("128-bit loads fault when the row pitch ...") names the
  // lever v1 itself kept: a condition of that win, listed as kept.
  for (const auto &s : r.segments)
    if (s.string_or("seg_id") == "pitfall-v1-01") {
      REQUIRE(s.get("kept_in_the_run").size() == 1);
      CHECK(s.get("kept_in_the_run")[0].string_or("version") == "v1");
    }
  // The staging pitfall of the dead-end v2 names a lever no kept step kept.
  for (const auto &s : r.segments)
    if (s.string_or("seg_id") == "anti-v2-01") CHECK(s.get("kept_in_the_run").size() == 0);
  // A different setting of the same lever is another failed lever.
  for (auto &row : in.rows)
    if (row.string_or("version") == "v2")
      row.set("deadend_items", json::Value::strings({"8 warps per program leave the loads too few in flight"}));
  auto other = partition::run(in);
  CHECK(other.merged_occurrences == 0);
}

TEST_CASE("an on-or-off lever named without a value is kept wherever a kept step names it (issue 25)",
          "[partition][issue25]") {
  // Round 12: "persistent row loop" filed as a failed lever in a run that
  // kept a persistent kernel three times, below the milestone threshold.
  testing::SyntheticTrace t("partition-on-off");
  auto in = partition::load_inputs(sources(t));
  for (auto &row : in.rows) {
    std::string v = row.string_or("version");
    if (v == "v2")
      row.set("deadend_items", json::Value::strings({"a persistent grid is slower because the last wave idles on the "
                                                     "short shapes"}));
    if (v == "v4") row.set("action_description", "Persistent kernel with 2-stage pipelining and num_warps=16.");
  }
  auto persistent_seg = [](const partition::Result &r) -> const json::Value * {
    for (const auto &s : r.segments)
      if (s.string_or("record_type") == "anti-strategy" && s.string_or("seg_id").starts_with("anti-v2")) return &s;
    return nullptr;
  };
  auto r = partition::run(in);
  const auto *seg = persistent_seg(r);
  REQUIRE(seg);
  REQUIRE(seg->get("kept_in_the_run").size() >= 1);
  CHECK(seg->get("kept_in_the_run")[0].string_or("version") == "v4");
  // A lever with settings between (the tile size) named without a value is
  // not matched to a kept step that names it.
  for (auto &row : in.rows) {
    std::string v = row.string_or("version");
    if (v == "v2")
      row.set("deadend_items", json::Value::strings({"larger tiles are slower because the last wave idles on the "
                                                     "short shapes"}));
    if (v == "v4") row.set("action_description", "Larger tiles with 2-stage pipelining.");
  }
  auto tiles = partition::run(in);
  const auto *tile_seg = persistent_seg(tiles);
  REQUIRE(tile_seg);
  CHECK(tile_seg->get("kept_in_the_run").size() == 0);
}

TEST_CASE("a failed lever's setting the run kept before the failure is listed as kept in the run (issue 25)",
          "[partition][issue25]") {
  // v1 kept num_warps=16; v7's pitfall says 16 warps fail. The attempt
  // departed from code that already held the win, so the account
  // contradicts the run as much as a later win would.
  testing::SyntheticTrace t("partition-levers-earlier-win");
  auto in = partition::load_inputs(sources(t));
  for (auto &row : in.rows) {
    std::string v = row.string_or("version");
    if (v == "v1") row.set("action_description", "Vectorised loads with num_warps=16.");
    if (v == "v4") row.set("action_description", "Persistent kernel with 2-stage pipelining.");
  }
  auto r = partition::run(in);
  const json::Value *warps = nullptr;
  for (const auto &s : r.segments)
    if (s.string_or("record_type") == "anti-strategy" && s.get("lever_settings").size() == 1 &&
        s.get("lever_settings")[0].string_or("value") == "16")
      warps = &s;
  REQUIRE(warps != nullptr);
  REQUIRE(warps->get("kept_in_the_run").size() == 1);
  CHECK(warps->get("kept_in_the_run")[0].string_or("version") == "v1");
}

TEST_CASE("a dead-end's technique is never only its figures (issue 25)", "[partition][issue25]") {
  // The subject's tail after the dash is the verdict and its figures; the
  // lever is before it.
  workspace::VersionRow row;
  row.subject = "v24: block size 4096 -> 8192 spills the tile \xE2\x80\x94 reverted, 16.93\xE2\x86\x92"
                "17.80us (+5.1%)";
  CHECK(partition::deadend_prose_technique(row) == "block-size-4096-8192-spills-the-tile");
  // A tail that names the lever still wins, as the spec orders it.
  row.subject = "v24: reverted \xE2\x80\x94 wider vector loads of the row";
  CHECK(partition::deadend_prose_technique(row) == "wider-vector-loads-of-the-row");
}

TEST_CASE("a failed lever lists the other values of it the run kept (issue 25, kit 23)", "[partition][issue25]") {
  testing::SyntheticTrace t("partition-other-settings");
  auto in = partition::load_inputs(sources(t));
  for (auto &row : in.rows) {
    std::string v = row.string_or("version");
    if (v == "v2") row.set("deadend_items", json::Value::strings({"num_warps=16 leaves too few registers per thread"}));
    if (v == "v4") row.set("action_description", "Persistent kernel with num_warps=8.");
  }
  auto r = partition::run(in);
  const json::Value *seg = nullptr;
  for (const auto &s : r.segments)
    if (s.string_or("record_type") == "anti-strategy" && s.get("lever_settings").size() == 1 &&
        s.get("lever_settings")[0].string_or("value") == "16")
      seg = &s;
  REQUIRE(seg);
  // v4 and the synthetic trace's own v5 keep num_warps=8.
  const auto &other = seg->get("kept_with_other_settings");
  REQUIRE(other.size() >= 1);
  CHECK(other[0].string_or("version") == "v4");
  for (std::size_t i = 0; i < other.size(); ++i) CHECK(other[i].string_or("setting") == "num_warps=8");
  // The same value kept is no other setting (it is kept_in_the_run).
  for (auto &row : in.rows)
    if (row.string_or("version") == "v4") row.set("action_description", "Persistent kernel with num_warps=16.");
  auto same = partition::run(in);
  for (const auto &s : same.segments)
    if (s.string_or("record_type") == "anti-strategy" && s.get("lever_settings").size() == 1 &&
        s.get("lever_settings")[0].string_or("value") == "16")
      for (std::size_t i = 0; i < s.get("kept_with_other_settings").size(); ++i)
        CHECK(s.get("kept_with_other_settings")[i].string_or("version") != "v4");
}

TEST_CASE("a milestone names the run's reverted tries of its change and what was kept since (kit 24)",
          "[partition][issue25]") {
  testing::SyntheticTrace t("partition-tried-before");
  auto in = partition::load_inputs(sources(t));
  auto r0 = partition::run(in);
  // A milestone with a reverted step before it, made to state its change.
  std::string milestone, tried;
  for (const auto &s : r0.segments) {
    if (s.string_or("record_type") != "strategy" || !milestone.empty()) continue;
    for (const auto &row : in.rows)
      if (row.get("n").as_int() < s.get("n").as_int() && row.get("reverted").truthy() && row.get("n").as_int() > 0)
        milestone = s.string_or("version"), tried = row.string_or("version");
  }
  REQUIRE_FALSE(milestone.empty()); // the synthetic trace reverts steps between its milestones
  std::string change;
  for (auto &row : in.rows)
    if (row.string_or("version") == milestone) change = row.string_or("action_description");
  REQUIRE_FALSE(change.empty());
  for (auto &row : in.rows)
    if (row.string_or("version") == tried) row.set("action_description", change);
  auto r = partition::run(in);
  bool seen = false;
  for (const auto &s : r.segments)
    if (s.string_or("seg_id") == "strategy-" + milestone) {
      seen = true;
      REQUIRE(s.get("reverted_tries_before").is_array());
      CHECK(s.get("reverted_tries_before")[s.get("reverted_tries_before").size() - 1].string_or("version") == tried);
      CHECK(s.get("kept_since_last_try").is_array());
    }
  CHECK(seen);
  // Without such a try the fields are absent.
  for (const auto &s : r0.segments)
    if (s.string_or("seg_id") == "strategy-" + milestone) CHECK(s.get("reverted_tries_before").is_null());
  // Another knob of the same lever is no earlier try (kit 27: BLOCK_H 1->4
  // said to retry BLOCK_S 1->4).
  for (auto &row : in.rows) {
    if (row.string_or("version") == milestone) row.set("action_description", "Changed BLOCK_H 1->4. More heads.");
    if (row.string_or("version") == tried) row.set("action_description", "Changed BLOCK_S 1->4. More tokens.");
  }
  auto other = partition::run(in);
  for (const auto &s : other.segments)
    if (s.string_or("seg_id") == "strategy-" + milestone) CHECK(s.get("reverted_tries_before").is_null());
  for (auto &row : in.rows)
    if (row.string_or("version") == tried) row.set("action_description", "Changed BLOCK_H 1->4. Tried first.");
  auto same = partition::run(in);
  for (const auto &s : same.segments)
    if (s.string_or("seg_id") == "strategy-" + milestone) CHECK(s.get("reverted_tries_before").is_array());
}
