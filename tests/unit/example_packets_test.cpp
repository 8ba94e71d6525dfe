// The bundled example trace through ingest, ladder, recon, partition and
// packet: segments, reports and every packet file pinned by goldens
// (testdata/golden/example/; regenerate with OTM_UPDATE_GOLDEN=1), the
// pre-flight clean, and every .diff equal to git's own diff.
#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include "code/source_lexer.hpp"
#include "example_trace.hpp"
#include "git/repository.hpp"
#include "scrub/scrubber.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

struct Pipeline {
  fs::path dir, trace, ws, store;
  std::string env;
  testing::ProcessResult run(const std::string &tool, const std::string &args = "") const {
    return testing::run_in(dir, env + " " + testing::bin(tool) + " " + args);
  }
};

Pipeline pipeline(const std::string &tag, const std::string &extra_env = "") {
  Pipeline p;
  p.dir = testing::fresh_temp_dir(tag);
  p.trace = testing::make_example_trace(p.dir / "traces");
  p.ws = p.dir / "ws";
  p.store = p.dir / "staging";
  p.env = "env -u RTM_TRACE_NAME -u ATREX_WIKI_DENYLIST -u RTM_LIVE -u OTM_CONFIG RTM_TRACE='" + p.trace.string() +
          "' RTM_WORKSPACE='" + p.ws.string() + "' RTM_STORE='" + p.store.string() + "' " + extra_env;
  auto ingest = p.run("otm-ingest", "--quiet");
  if (ingest.rc != 0) throw std::runtime_error("otm-ingest: " + ingest.err);
  auto ladder = p.run("otm-ladder", "'" + (p.ws / "work" / "versions.jsonl").string() + "' -o '" +
                                        (p.ws / "work" / "ladder.jsonl").string() + "'");
  if (ladder.rc != 0) throw std::runtime_error("otm-ladder: " + ladder.err);
  return p;
}

const char *kSlug = "001-example-fused-softmax-h4096";

} // namespace

TEST_CASE("example trace: recon, partition and packets match the goldens", "[packet][example]") {
  auto p = pipeline("example-packets");
  auto recon = p.run("otm-recon", "--quiet");
  REQUIRE(recon.rc == 0);
  auto part = p.run("otm-partition", "--quiet");
  INFO(part.err);
  REQUIRE(part.rc == 0);
  auto pk = p.run("otm-packet", "--quiet");
  INFO(pk.err);
  REQUIRE(pk.rc == 0); // the pre-flight is clean

  auto reports = p.store / "reports" / kSlug;
  CHECK(testing::check_golden("example/recon.md", io::read_file(reports / "recon.md")) == "");
  CHECK(testing::check_golden("example/ladder.svg", io::read_file(reports / "ladder.svg")) == "");
  CHECK(testing::check_golden("example/partition.md", io::read_file(reports / "partition.md")) == "");
  CHECK(testing::check_golden("example/segments.jsonl", io::read_file(p.ws / "work" / "segments.jsonl")) == "");
  std::string listing;
  for (const auto &f : io::list_dir(p.ws / "packets")) {
    std::string name = f.filename().string();
    listing += name + "\n";
    CHECK(testing::check_golden("example/packets/" + name, io::read_file(f)) == "");
  }
  CHECK(testing::check_golden("example/packets.txt", listing) == "");
  auto segments = json::parse_lines_file(p.ws / "work" / "segments.jsonl");
  CHECK(json::parse_lines(pk.out).size() == segments.size());

  // Every .diff is git's diff of the recorded range, byte for byte before
  // the comment scrubbing, and exactly its code-scrubbed form after.
  auto repo = git::Repository::open(p.trace);
  std::size_t diffs = 0;
  for (const auto &f : io::list_dir(p.ws / "packets")) {
    // The claimed step's own change (.step.diff) is checked with its packet below.
    if (f.extension() != ".diff" || f.string().ends_with(".step.diff")) continue;
    ++diffs;
    auto packet = json::parse_file(f.parent_path() / (f.stem().string() + ".json"));
    const auto &prov = packet.get("provenance");
    std::string from = prov.get("diff_from").string_or("git_commit"), to = prov.get("diff_to").string_or("git_commit");
    REQUIRE(!to.empty());
    auto git = testing::run_in(p.trace, "git --no-pager diff " + from + ".." + to + " -- kernel.py");
    REQUIRE(git.rc == 0);
    CHECK(repo.diff_path(from, to, "kernel.py") == git.out);
    scrub::Scrubber s(nullptr, prov.string_or("version"));
    CHECK(io::read_file(f) == s.code(git.out));
  }
  CHECK(diffs > 5);
}

namespace {

json::Value packet_of(const Pipeline &p, const std::string &seg) {
  return json::parse_file(p.ws / "packets" / (seg + ".json"));
}
std::string code_of(const Pipeline &p, const std::string &seg) {
  auto f = p.ws / "packets" / (seg + ".diff");
  return io::is_regular_file(f) ? io::read_file(f) : std::string();
}
bool changes_code(const std::string &diff) { return code::count_changes(code::lex_diff(diff)).changes_code(); }

} // namespace

TEST_CASE("example trace: a strategy's code is the change that bought its gain (issue 10)",
          "[packet][example][issue10]") {
  auto p = pipeline("example-issue10");
  REQUIRE(p.run("otm-partition", "--quiet").rc == 0);
  auto pk = p.run("otm-packet", "--quiet");
  INFO(pk.err);
  REQUIRE(pk.rc == 0);
  std::map<std::string, json::Value> ladder;
  for (auto &row : json::parse_lines_file(p.ws / "work" / "ladder.jsonl")) ladder[row.string_or("version")] = row;

  SECTION("every strategy's diff runs from the version its gain is measured against") {
    std::size_t strategies = 0;
    for (const auto &seg : json::parse_lines_file(p.ws / "work" / "segments.jsonl")) {
      if (seg.string_or("record_type") != "strategy") continue;
      ++strategies;
      std::string v = seg.string_or("version");
      auto prov = packet_of(p, seg.string_or("seg_id")).get("provenance");
      INFO(v);
      CHECK(prov.get("diff_from").string_or("version") == ladder[v].string_or("best_before_version"));
      CHECK(prov.get("diff_from").string_or("git_commit") ==
            ladder[ladder[v].string_or("best_before_version")].string_or("sha"));
      CHECK(prov.get("diff_to").string_or("version") == v);
      // No comment-only diff where the trace holds a real change in the range.
      auto git = testing::run_in(p.trace, "git --no-pager diff " + prov.get("diff_from").string_or("git_commit") +
                                              ".." + prov.get("diff_to").string_or("git_commit") + " -- kernel.py");
      CHECK(changes_code(code_of(p, seg.string_or("seg_id"))) == changes_code(git.out));
    }
    CHECK(strategies == 13);
  }
  SECTION("a failed attempt's diff starts at the best code it was tried on, not a reverted attempt before it") {
    // v9 (no row-max subtraction) was committed on top of v8's reverted
    // exp2 attempt: its pitfall shows only the dropped max, measured
    // against v7.
    auto pk9 = packet_of(p, "pitfall-v9-01");
    CHECK(pk9.get("provenance").get("diff_from").string_or("version") == "v7");
    auto diff = code_of(p, "pitfall-v9-01");
    CHECK(diff.find("-        e = tl.exp(x - m)") != std::string::npos);
    CHECK(diff.find("tl.exp2") == std::string::npos);
    for (const auto &seg : json::parse_lines_file(p.ws / "work" / "segments.jsonl")) {
      if (seg.string_or("record_type") != "anti-strategy") continue;
      const auto &row = ladder[seg.string_or("version")];
      if (!row.get("reverted").truthy()) continue;
      INFO(seg.string_or("seg_id"));
      CHECK(seg.get("measured_against").string_or("version") == row.string_or("best_before_version"));
      CHECK(packet_of(p, seg.string_or("seg_id"))
                .get("agent_facing")
                .get("measurements")
                .get("slower_than_tried_on_pct")
                .is_number());
    }
  }
  SECTION("a record's lineage: kept steps that passed their check and whose change runs") {
    // v9 (no row-max subtraction) was committed and not reverted, but failed
    // its correctness check and v10 restored the max: no part of v13's
    // lineage; v7 (num_warps 16) is.
    const auto versions = packet_of(p, "strategy-v13").get("provenance").get("lineage_versions");
    std::vector<std::string> vs;
    for (std::size_t i = 0; i < versions.size(); ++i) vs.push_back(*versions[i].as_string());
    CHECK(std::find(vs.begin(), vs.end(), "v7") != vs.end());
    CHECK(std::find(vs.begin(), vs.end(), "v9") == vs.end());
    CHECK(packet_of(p, "strategy-v13").get("agent_facing").get("kept_changes_of_its_lineage").size() == vs.size());
  }
  SECTION("a strategy builds on the step its diff starts from") {
    // v7 is measured against v6 (kept, under the milestone threshold after
    // the v5 milestone): its code builds on v6's change, not on v5's.
    auto pk7 = packet_of(p, "strategy-v7");
    CHECK(pk7.get("provenance").get("diff_from").string_or("version") == "v6");
    CHECK(pk7.get("provenance").string_or("builds_on_version") == "v6");
    CHECK(pk7.get("agent_facing").get("builds_on").string_or("previous_approach") ==
          "num_stages=1 on the persistent loop.");
    // Kit 54, Q09: the running lines that step changed, quoted when few
    // and held by the kernel after (v7's num_warps 8 -> 16 under v10);
    // never for the untouched baseline, whose change is the whole file.
    const auto pk10 = packet_of(p, "strategy-v10");
    const auto &running = pk10.get("agent_facing").get("builds_on").get("its_running_change");
    CHECK(running.get("removed") == json::Value::strings({"BLOCK_N=N_COLS, num_warps=8, num_stages=1)"}));
    CHECK(running.get("added") == json::Value::strings({"BLOCK_N=N_COLS, num_warps=16, num_stages=1)"}));
    CHECK_FALSE(packet_of(p, "strategy-v2").get("agent_facing").get("builds_on").contains("its_running_change"));
  }
  SECTION("the warm-L2 step shows the tree reduction, not its comment") {
    auto diff = code_of(p, "strategy-v13");
    CHECK(packet_of(p, "strategy-v13").get("provenance").get("diff_from").string_or("version") == "v10");
    CHECK(diff.find("+        m = tl.reduce(x, 0, _max_combine)") != std::string::npos);
    CHECK(changes_code(diff));
  }
  SECTION("a step whose only difference from the best-so-far is a comment says so") {
    auto pk10 = packet_of(p, "strategy-v10");
    CHECK(pk10.get("provenance").get("diff_from").string_or("version") == "v7");
    CHECK_FALSE(changes_code(code_of(p, "strategy-v10")));
    CHECK(pk10.get("agent_facing").string_or("diff_shows").find("changes no line that runs") != std::string::npos);
  }
  SECTION("the final step is measured against the best-so-far, not its rejected parent") {
    auto pk28 = packet_of(p, "strategy-v28");
    CHECK(pk28.get("provenance").get("diff_from").string_or("version") == "v25");
    CHECK(code_of(p, "strategy-v28").find("(2 stages)") == std::string::npos);
  }
  SECTION("the ncu capture's root cause, not the nsys timeline of the same version") {
    auto pk5 = packet_of(p, "strategy-v5");
    const auto &af = pk5.get("agent_facing");
    CHECK(af.get("profiler").string_or("tool") == "ncu");
    CHECK(af.get("profiler").string_or("conclusion").rfind("the kernel is bandwidth-bound", 0) == 0);
    CHECK(af.get("profiler").string_or("evidence").find("dram__throughput 87.1%") != std::string::npos);
    CHECK(af.get("profiler").get("conclusion_is_from_the_kernel_under_test") == json::Value(true));
    CHECK(pk5.get("provenance").string_or("report_dir") == "v5_ncu");
  }
  SECTION("the trace's own explanations reach the packet") {
    auto pk5 = packet_of(p, "strategy-v5"), pk2 = packet_of(p, "strategy-v2"), pk25 = packet_of(p, "strategy-v25");
    const auto &v5 = pk5.get("agent_facing").get("what_the_run_said");
    CHECK(v5.string_or("expected_impact") ==
          "pays the block launch and retire cost once per SM instead of once per row");
    CHECK(v5.get("causal_sentences") ==
          json::Value::strings({"Grid = number of SMs; each program strides over rows, so each SM runs one "
                                "long-lived program instead of M / 148 short ones and the block launch and retire "
                                "cost is paid once per SM."}));
    const auto &v2 = pk2.get("agent_facing").get("what_the_run_said");
    REQUIRE(v2.get("directions_taken_up").size() == 1);
    CHECK(v2.get("directions_taken_up").as_array()->at(0).string_or("rationale") ==
          "the row is read from HBM three times; a single read should cut traffic by two thirds");
    const auto &v25 = pk25.get("agent_facing");
    CHECK(v25.get("what_the_run_said").get("directions_taken_up").size() == 1);
    CHECK(v25.get("profiler").string_or("conclusion").rfind("# ncu capture this step", 0) == 0);
  }
  SECTION("scrubbing kept the PTX mnemonic") {
    auto pk3 = packet_of(p, "strategy-v3");
    const auto &v3 = pk3.get("agent_facing").get("what_the_run_said");
    CHECK(v3.string_or("commit_body").find("emit ld.global.v4.b32;") != std::string::npos);
  }
}

TEST_CASE("example trace against a copy of the live store", "[packet][example][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  fs::path shared = wiki / "kernel_wiki";
  auto p = pipeline("example-live");
  auto live = p.dir / "live";
  fs::copy(shared, live, fs::copy_options::recursive);
  // Records of this operator from another trace, at known maxima.
  auto index = json::parse_file(live / "records" / "index.json");
  auto *records = index.find("records")->as_array();
  std::size_t real = records->size();
  for (const char *id :
       {"nvidia.b200.triton.fused-softmax-h4096.older-idea-s06", "nvidia.b200.triton.norm.anti.older-failure-t11",
        "nvidia.b200.triton.fused-softmax-h4096.reference-impl-r03"}) {
    std::string rel = std::string("records/strategy/") + id + ".json";
    json::Value rec = json::Value::object();
    rec.set("id", id);
    rec.set("type", "strategy");
    rec.set("retrieval", json::parse(R"({"scope": {"operator_family": "fused-softmax-h4096"}})"));
    rec.set("evidence", json::parse(R"({"raw": {"source_repo": "kernel_opt_077_other_run", "version": "v4"}})"));
    io::write_file_atomic(live / rel, json::to_pretty(rec));
    json::Value e = rec;
    e.erase("evidence");
    e.set("path", rel);
    records->push_back(e);
  }
  io::write_file_atomic(live / "records" / "index.json", json::to_pretty(index));
  std::string live_arg = "--live '" + live.string() + "'";
  auto recon = p.run("otm-recon", "--quiet " + live_arg + " -o -");
  REQUIRE(recon.rc == 0);
  CHECK(recon.out.find("(" + std::to_string(real + 3) + " records)") != std::string::npos);
  CHECK(recon.out.find("3 live records already cover `fused-softmax-h4096`.") != std::string::npos);
  CHECK(recon.out.find("| kernel_opt_077_other_run | 3 | v4 |") != std::string::npos);
  CHECK(recon.out.find("`r`->03, `s`->06, `t`->11") != std::string::npos);
  auto part = p.run("otm-partition", "--quiet -o - " + live_arg);
  INFO(part.err);
  REQUIRE(part.rc == 0);
  std::size_t checked = 0;
  for (const auto &seg : json::parse_lines(part.out)) {
    std::string id = seg.string_or("id");
    char marker = id[id.rfind('-') + 1];
    int n = std::stoi(id.substr(id.rfind('-') + 2));
    int seed = marker == 's' ? 6 : marker == 't' ? 11 : 3;
    CHECK(n > seed);
    CHECK(seg.get("comparable") == json::Value(false));
    ++checked;
  }
  CHECK(checked > 10);
}

TEST_CASE("otm-packet refuses a version row of another shape, naming its row and field", "[packet][issue28]") {
  // Issue 28: the packet stage reads work/versions.jsonl typed, as
  // partition and recon do; a hand-edited `reverted` of another type is
  // refused, not read as whatever it happens to be truthy as.
  auto p = pipeline("packet-refuse-row");
  REQUIRE(p.run("otm-partition", "--quiet").rc == 0);
  const auto file = p.ws / "work" / "versions.jsonl";
  auto rows = json::parse_lines_file(file);
  REQUIRE(rows.size() > 2);
  rows[1].set("reverted", 1);
  io::write_file_atomic(file, json::to_lines(rows));
  auto pk = p.run("otm-packet", "--quiet");
  CHECK(pk.rc == 2);
  CHECK_THAT(pk.err, Catch::Contains("versions.jsonl: row 2") && Catch::Contains("`reverted`"));
  CHECK(io::list_dir(p.ws / "packets").empty()); // no packet was written
}
