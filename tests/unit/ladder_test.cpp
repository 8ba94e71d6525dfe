#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>

#include "config/config.hpp"
#include "io/file.hpp"
#include "ladder/input.hpp"
#include "ladder/ladder.hpp"
#include "ladder/noise.hpp"
#include "ladder/self_test.hpp"
#include "ladder/verdict.hpp"
#include "scratch.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using json::Value;
using ladder::Kind;

namespace {

// A committed, kept version row as otm-ingest writes it.
Value kept(int n, Value geo, std::string subject = "") {
  char sha[41];
  std::snprintf(sha, sizeof sha, "%040x", n);
  Value r = Value::object();
  r.set("version", "v" + std::to_string(n));
  r.set("n", n);
  r.set("has_commit", true);
  r.set("has_memory", true);
  r.set("sha", std::string(sha));
  r.set("subject", subject.empty() ? "v" + std::to_string(n) + ": step" : subject);
  r.set("reverted", false);
  r.set("geomean_us", std::move(geo));
  return r;
}

Value reverted(int n, Value geo, std::string subject) {
  Value r = kept(n, std::move(geo), std::move(subject));
  r.set("reverted", true);
  return r;
}

const config::LadderThresholds kSpec{};

std::string reason(const ladder::Result &r, const std::string &v) {
  for (const auto &x : r.rejections)
    if (x.version == v) return x.reason;
  return "";
}

std::string selection(const ladder::Result &r, std::size_t i) { return r.judgements.at(i).selection; }

std::vector<std::string> milestones(const ladder::Result &r) {
  std::vector<std::string> out;
  for (const auto &m : r.milestones) out.push_back(m.version + ":" + std::string(ladder::kind_name(m.kind)));
  return out;
}

} // namespace

TEST_CASE("the spec's self-test series gives exactly the pinned outcome", "[ladder]") {
  auto rows = ladder::self_test_rows();
  auto r = ladder::select(rows, kSpec);
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v3:mega", "v7:milestone"});
  REQUIRE(r.milestones.size() == 3);
  CHECK_FALSE(r.milestones[0].improve_pct);
  CHECK(*r.milestones[1].improve_pct == 24.92);
  CHECK(*r.milestones[2].improve_pct == 3.33);
  REQUIRE(r.deadends.size() == 1);
  CHECK(r.deadends[0].version == "v8");
  CHECK(reason(r, "v2") == "under 1.5% (0.10%)");
  CHECK(reason(r, "v4") == "harness re-baselining (7x worse)");
  CHECK(reason(r, "v5") == "under 1.5% (-5.33%)");
  CHECK(reason(r, "v6") == "declares no change (20.00%)");
  CHECK(reason(r, "v9") == "infrastructure");
  CHECK(r.rejections.size() == 5);
  CHECK(*r.best == 58.0);
  auto rep = ladder::run_self_test(kSpec);
  CHECK(rep.ok());
  CHECK(rep.passed.size() == 10);
}

TEST_CASE("text_of joins the truthy text fields in order", "[ladder]") {
  Value r = Value::object();
  r.set("subject", "v3: a");
  r.set("body", "");
  r.set("action_description", "b");
  r.set("gate_failure", 7);
  CHECK(ladder::text_of(r) == "v3: a b 7");
  CHECK(ladder::text_of(Value::object()).empty());
}

TEST_CASE("noise reasons follow the spec's order", "[ladder]") {
  Value r = kept(3, 10.0);
  r.set("version", "v3_rerun2");
  CHECK(ladder::noise_reason(r, false) == std::optional<std::string>("remeasurement"));
  r = kept(3, 10.0, "v3: infra outage, NOT_RUN");
  CHECK(ladder::noise_reason(r, false) == std::optional<std::string>("infrastructure"));
  r = kept(3, 10.0);
  r.set("correctness_status", "FAIL");
  r.set("gate_result", "FAIL");
  CHECK_FALSE(ladder::noise_reason(r, false));
  CHECK(ladder::noise_reason(r, true) == std::optional<std::string>("incorrect"));
  r.set("correctness_status", "PASS");
  CHECK(ladder::noise_reason(r, true) == std::optional<std::string>("gate-fail"));
  r.set("gate_result", "PASS");
  CHECK_FALSE(ladder::noise_reason(r, true));
}

TEST_CASE("noise patterns are word-bounded and curated", "[ladder]") {
  auto infra = [](const std::string &s) { return ladder::noise_reason(kept(4, 1.0, s), false).has_value(); };
  CHECK_FALSE(infra("v4: cache-blocked tiling of the row loop (-3%)"));
  CHECK_FALSE(infra("v4: blocked the reduction into 4 warps"));
  CHECK_FALSE(infra("v4: infrared camera kernel"));
  CHECK_FALSE(infra("v4: TMA unavailable on this arch, used cp.async"));
  CHECK(infra("v4: infra outage"));
  CHECK(infra("v4: infrastructure flake, not run"));
  CHECK(infra("v4: GPU unavailable"));
  CHECK(infra("v4: job blocked by the scheduler"));
  CHECK(infra("v4: sandbox denied the profiler"));
  CHECK(infra("v4: NO_GPU"));
  auto none = [](const std::string &s) { return ladder::declares_no_change(kept(4, 1.0, s)); };
  CHECK_FALSE(none("v4: no opportunity for vectorisation left"));
  CHECK_FALSE(none("v4: no optimisation of the epilogue"));
  CHECK_FALSE(none("v4: no changelog entry"));
  CHECK(none("v4: no-op rebuild"));
  CHECK(none("v4: NO_CHANGE"));
  CHECK(none("v4: flat within noise"));
  CHECK(none("v4: kept -> 59.6→59.1µs (-0.7%) no improvement over 60.1us"));
}

TEST_CASE("correctness and gate vocabulary", "[ladder]") {
  for (const char *ok : {"PASS", "pass", "PASSED", "Passed", "ok", " success "})
    CHECK_FALSE(ladder::correctness_failed(Value(ok)));
  for (const char *bad : {"FAIL", "TIMEOUT_FAIL", "mismatch", "SKIPPED"}) CHECK(ladder::correctness_failed(Value(bad)));
  CHECK_FALSE(ladder::correctness_failed(Value()));
  CHECK_FALSE(ladder::correctness_failed(Value("")));
  CHECK(ladder::correctness_failed(Value(false)));
  for (const char *bad : {"FAIL", "fail", "FAILED", "TIMEOUT_FAIL", "timeout", "ERROR"})
    CHECK(ladder::gate_failed(Value(bad)));
  for (const char *ok : {"PASS", "PASSED", "", "skipped"}) CHECK_FALSE(ladder::gate_failed(Value(ok)));
  CHECK_FALSE(ladder::gate_failed(Value()));
}

TEST_CASE("reverted versions are dead-ends or rejected, and never move the floor", "[ladder]") {
  std::vector<Value> rows{
      kept(1, 100.0),
      reverted(2, 50.0,
               "v2: reverted (dead-end recorded: split-K reduction is slower because the extra pass re-reads HBM)"),
      reverted(3, 40.0, "v3: reverted"),
      reverted(4, 40.0, "v4: reverted - infra outage while measuring the persistent variant of the row kernel"),
      kept(5, 99.0),
  };
  auto r = ladder::select(rows, kSpec);
  REQUIRE(r.deadends.size() == 1);
  CHECK(r.deadends[0].version == "v2");
  CHECK(reason(r, "v3") == "reverted, nothing said");
  CHECK(reason(r, "v4") == "infrastructure");
  CHECK(reason(r, "v5") == "under 1.5% (1.00%)");
  CHECK(*r.best == 99.0);
  CHECK_FALSE(r.judgements[1].improve_pct);
}

TEST_CASE("the dead-end text threshold is strict and counted in code points", "[ladder]") {
  // 81 code points with µ (2 bytes) inside: above 80.
  std::string s = "v2: reverted µ";
  while (s.size() < 200 && ladder::text_of(reverted(2, 1.0, s)).size() < 81 + 1) s += "x";
  Value row = reverted(2, 1.0, s);
  auto r = ladder::select({kept(1, 10.0), row}, kSpec);
  CHECK(r.deadends.size() == 1); // 81 code points (82 bytes)
  s.pop_back();
  s.pop_back();
  r = ladder::select({kept(1, 10.0), reverted(2, 1.0, s)}, kSpec);
  CHECK(reason(r, "v2") == "reverted, nothing said");
}

TEST_CASE("unusable geomeans are rejected, never a crash", "[ladder]") {
  std::vector<Value> rows{
      kept(1, Value()),        kept(2, 0.0), kept(3, -4.0), kept(4, Value("12.5")), kept(5, Value(true)),
      kept(6, Value::array()), kept(7, 0)};
  auto r = ladder::select(rows, kSpec);
  CHECK(r.milestones.empty());
  for (int n = 1; n <= 7; ++n) CHECK(reason(r, "v" + std::to_string(n)) == "no usable geomean");
  CHECK_FALSE(r.best);
}

TEST_CASE("a version without a commit is not reachable code", "[ladder]") {
  Value memory_only = kept(2, 50.0);
  memory_only.erase("sha");
  memory_only.set("has_commit", false);
  memory_only.set("git_commit_hash", "0123456789abcdef0123456789abcdef01234567");
  auto r = ladder::select({kept(1, 100.0), memory_only}, kSpec);
  CHECK(reason(r, "v2") == "no commit, code not reachable");
  CHECK(*r.best == 100.0);
}

TEST_CASE("baseline, milestone and mega thresholds", "[ladder]") {
  auto r = ladder::select({kept(1, 100.0), kept(2, 98.5), kept(3, 78.8), kept(4, 78.0)}, kSpec);
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v2:milestone", "v3:mega", "v4:final"});
  CHECK(*r.milestones[1].improve_pct == 1.5);
  CHECK(*r.milestones[2].improve_pct == 20.0);
  CHECK_FALSE(r.milestones[3].improve_pct);
  CHECK(reason(r, "v4") == "under 1.5% (1.02%)");
}

TEST_CASE("re-baselining is rejected and keeps the floor", "[ladder]") {
  auto r = ladder::select({kept(1, 10.0), kept(2, 50.01), kept(3, 50.0), kept(4, 9.0)}, kSpec);
  CHECK(reason(r, "v2") == "harness re-baselining (5x worse)");
  CHECK(reason(r, "v3") == "under 1.5% (-400.00%)"); // exactly 5x is not beyond the factor
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v4:milestone"});
}

TEST_CASE("an unexplained win is rejected with its real ratio and does not move the floor", "[ladder]") {
  std::vector<Value> rows{kept(1, 100.0), kept(2, 60.0),
                          kept(3, 5.0, "v3: tweak num_warps (-0.8%)"), // committed, has text, claims nothing
                          kept(4, 58.0), kept(5, 57.5)};
  auto r = ladder::select(rows, kSpec);
  CHECK(reason(r, "v3") == "unexplained win (12x better than best-so-far, not claimed by its text)");
  CHECK(selection(r, 3) == "milestone");
  // Later versions are judged against 60.0, not against the artifact.
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v2:mega", "v4:milestone", "v5:final"});
  CHECK(reason(r, "v5") == "under 1.5% (0.86%)");
  CHECK(r.judgements[4].best_before_us == std::optional<double>(58.0));
  for (const auto &x : r.rejections) CHECK(x.reason.find("re-baselining") == std::string::npos);
}

TEST_CASE("a win the version's own text claims is credited", "[ladder]") {
  auto claimed = [](Value row) { return ladder::select({kept(1, 300.0), std::move(row)}, kSpec); };
  // subject_before_us / subject_after_us as otm-ingest parses them from "300 -> 50 us".
  Value arrow = kept(2, 50.0, "v2: single-pass online softmax 300 -> 50 us");
  arrow.set("subject_before_us", 300.0);
  arrow.set("subject_after_us", 50.0);
  auto r = claimed(arrow);
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v2:mega"});
  Value pct = kept(2, 50.0, "v2: fused the three passes (-83.3%)");
  pct.set("subject_pct", -83.3);
  CHECK(milestones(claimed(pct)).size() == 2);
  CHECK(milestones(claimed(kept(2, 50.0, "v2: persistent kernel, 6x faster"))).size() == 2);
  CHECK(milestones(claimed(kept(2, 50.0, "v2: single pass, a speed-up of 6.5× on every shape"))).size() == 2);
  CHECK(ladder::claimed_speedup(kept(2, 50.0, "v2: retune")) == 1.0);
  auto weak = claimed(kept(2, 50.0, "v2: persistent kernel, 2x faster"));
  CHECK(ladder::reason_group(reason(weak, "v2")) == "unexplained win");
}

TEST_CASE("a blank-text win still reports its true ratio", "[ladder]") {
  Value blank = kept(2, 10.0);
  blank.erase("subject");
  auto r = ladder::select({kept(1, 70.0), blank}, kSpec);
  CHECK(reason(r, "v2") == "unexplained win (7x better than best-so-far, not claimed by its text)");
  CHECK(*r.best == 70.0);
}

TEST_CASE("under-threshold versions move the floor only when they improve", "[ladder]") {
  auto r = ladder::select({kept(1, 100.0), kept(2, 101.0), kept(3, 99.0), kept(4, 97.6)}, kSpec);
  CHECK(reason(r, "v2") == "under 1.5% (-1.00%)");
  CHECK(reason(r, "v3") == "under 1.5% (1.00%)");
  CHECK(selection(r, 3) == "final"); // 97.6 vs 99.0 is 1.41%, under; it holds the floor
  CHECK(*r.best == 97.6);
}

TEST_CASE("a no-change declaration takes the floor but not the credit", "[ladder]") {
  auto r = ladder::select(
      {kept(1, 100.0), kept(2, 70.0, "v2: NO_CHANGE rebuild"), kept(3, 69.5), kept(4, 69.0, "v4: no-op (+0.1%)")},
      kSpec);
  CHECK(reason(r, "v2") == "declares no change (30.00%)");
  CHECK(reason(r, "v3") == "under 1.5% (0.71%)");
  CHECK(reason(r, "v4") == "under 1.5% (0.72%)");
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v4:final"});
}

TEST_CASE("the first kept step after a commit that changed the measurement is a re-baseline", "[ladder][issue25]") {
  // Kit 61, J19: "harness: flush L2 between iterations" committed between
  // v85 and v86; v86's 9.1 % was the new harness's 10 %. The patterns are
  // the built-in configuration's.
  const auto spec = config::Config::load(std::nullopt).ladder();
  auto after = [](Value row, std::vector<std::string> others) {
    row.set("other_commits_before", Value::strings(others));
    return row;
  };
  auto r = ladder::select(
      {kept(1, 100.0), kept(2, 90.0),
       after(reverted(3, 95.0, "v3: reverted (slower)"), {"harness: flush L2 between iterations", "undo v3"}),
       kept(4, 81.0), kept(5, 78.0)},
      spec);
  CHECK(reason(r, "v4") ==
        "re-baseline: measured after the run changed how it measures ('harness: flush L2 between iterations', "
        "0.90x the floor)");
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v2:milestone", "v5:milestone"}); // 3.7 % on 81
  // Another machine, pinned clocks: the same; without the patterns, a gain.
  for (const char *subject : {"bench: move to a different node", "bench: pin clocks / new node"}) {
    const std::vector<Value> rows{kept(1, 100.0), after(kept(2, 70.0), {subject})};
    CHECK(milestones(ladder::select(rows, spec)) == std::vector<std::string>{"v1:baseline", "v2:final"});
    CHECK(milestones(ladder::select(rows, kSpec)) == std::vector<std::string>{"v1:baseline", "v2:mega"});
  }
  // Commits that change no measurement leave the ladder as it was.
  auto chores = ladder::select(
      {kept(1, 100.0), after(kept(2, 90.0), {"chore: bump the harness seed", "bench: re-measure v1 (100 -> 99 us)"})},
      spec);
  CHECK(milestones(chores) == std::vector<std::string>{"v1:baseline", "v2:milestone"});
}

TEST_CASE("a step that says its harness changed how it measures claims nothing (issue 25)", "[ladder]") {
  auto r = ladder::select({kept(1, 100.0),
                           kept(2, 70.8,
                                "v2: kept: retuned CTAs per SM to 3 (+0.00%)\n"
                                "Harness: harness switched to CUDA-graph replay timing "
                                "(re-baselined)."),
                           kept(3, 65.0)},
                          kSpec);
  CHECK(reason(r, "v2") == "re-baseline: the measurement changed (0.71x the floor)");
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v3:milestone"}); // against 70.8, not 100
  // Slower under the new measurement (round 13: a harness that flushes L2),
  // the floor moves up too: the run's later best is final, not the old
  // harness's number.
  auto slower =
      ladder::select({kept(1, 100.0), kept(2, 45.3),
                      kept(3, 47.5, "v3: re-baseline under the new harness: 45.3 -> 47.5 us, kernel unchanged"),
                      kept(4, 46.8), kept(5, 48.0)},
                     kSpec);
  CHECK(reason(slower, "v3") == "re-baseline: the measurement changed (1.05x the floor)");
  CHECK(milestones(slower) == std::vector<std::string>{"v1:baseline", "v2:mega", "v4:final"});
  // "Kernel unchanged" alone is no new measurement.
  auto same = ladder::select(
      {kept(1, 100.0), kept(2, 45.3), kept(3, 47.5, "v3: sanity bench, kernel unchanged"), kept(4, 46.8)}, kSpec);
  CHECK(milestones(same) == std::vector<std::string>{"v1:baseline", "v2:mega"});
  // A step that only mentions a baseline is not one.
  auto plain = ladder::select({kept(1, 100.0), kept(2, 70.0, "v2: two rows per program; baseline harness")}, kSpec);
  CHECK(milestones(plain) == std::vector<std::string>{"v1:baseline", "v2:mega"});
}

TEST_CASE("final is the latest accepted version holding the floor", "[ladder]") {
  SECTION("never a version rejected by a guard") {
    Value infra = kept(4, 50.0, "v4: infra outage");
    Value incorrect = kept(5, 50.0);
    incorrect.set("correctness_status", "FAIL");
    Value gate = kept(6, 50.0);
    gate.set("gate_result", "TIMEOUT_FAIL");
    Value nocommit = kept(7, 50.0);
    nocommit.erase("sha");
    Value rev = reverted(8, 50.0, "v8: reverted");
    Value remeasured = kept(9, 50.0);
    remeasured.set("version", "v9_rerun");
    auto r = ladder::select(
        {kept(1, 100.0), kept(2, 50.0), kept(3, 50.0), infra, incorrect, gate, nocommit, rev, remeasured}, kSpec);
    CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v2:mega", "v3:final"});
    CHECK(reason(r, "v3") == "under 1.5% (0.00%)");
    CHECK(r.judgements[2].reason == std::optional<std::string>("under 1.5% (0.00%)"));
    CHECK(reason(r, "v4") == "infrastructure");
    CHECK(reason(r, "v5") == "incorrect");
    CHECK(reason(r, "v6") == "gate-fail");
    CHECK(reason(r, "v7") == "no commit, code not reachable");
    CHECK(reason(r, "v8") == "reverted, nothing said");
    CHECK(reason(r, "v9_rerun") == "remeasurement");
  }
  SECTION("no final when the last milestone holds the floor") {
    auto r = ladder::select({kept(1, 100.0), kept(2, 50.0), kept(3, 80.0)}, kSpec);
    CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v2:mega"});
  }
  SECTION("within the tolerance, the largest n wins") {
    auto r = ladder::select({kept(1, 100.0), kept(2, 50.0), kept(3, 50.004), kept(4, 50.006)}, kSpec);
    CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v2:mega", "v3:final"});
  }
  SECTION("an unexplained win is never final") {
    auto r = ladder::select({kept(1, 100.0), kept(2, 50.0), kept(3, 1.0, "v3: retune")}, kSpec);
    CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v2:mega"});
  }
  SECTION("no milestone, no final") {
    auto r = ladder::select({kept(1, Value())}, kSpec);
    CHECK(r.milestones.empty());
  }
}

TEST_CASE("thresholds come from the configuration, not the code", "[ladder]") {
  otm::testsupport::TempDir scratch("ladder-config"); // its own: suites run side by side
  const auto &dir = scratch.path();
  io::write_file_atomic(dir / "override.json", R"({"ladder": {"milestone_pct": 5.0, "mega_pct": 50.0}})");
  auto t = config::Config::load(dir / "override.json").ladder();
  CHECK(t.milestone_pct == 5.0);
  auto r = ladder::select(ladder::self_test_rows(), t);
  CHECK(reason(r, "v7") == "under 5.0% (3.33%)");
  CHECK(milestones(r) == std::vector<std::string>{"v1:baseline", "v3:milestone", "v7:final"});
  CHECK_FALSE(ladder::run_self_test(t).ok());
  CHECK(config::Config::defaults().ladder().milestone_pct == 1.5);
  std::filesystem::remove_all(dir);
}

TEST_CASE("annotate appends six keys after the row's own", "[ladder]") {
  auto rows = ladder::self_test_rows();
  auto out = ladder::annotate(rows, ladder::select(rows, kSpec));
  REQUIRE(out.size() == rows.size());
  const auto &o = *out[1].as_object();
  REQUIRE(o.size() == rows[1].size() + 6);
  CHECK(o[o.size() - 6].first == "selection");
  CHECK(o[o.size() - 5].first == "reason");
  CHECK(o[o.size() - 4].first == "improve_pct");
  CHECK(o[o.size() - 3].first == "best_before_us");
  CHECK(o[o.size() - 2].first == "best_before_version");
  CHECK(o[o.size() - 1].first == "best_after_us");
  CHECK(json::to_line(out[1]).find(R"x("selection": "rejected", "reason": "under 1.5% (0.10%)", )x"
                                   R"x("improve_pct": 0.1, "best_before_us": 100.0, "best_before_version": "v1", )x"
                                   R"x("best_after_us": 99.9})x") != std::string::npos);
  // The floor after each row: a re-baselined row leaves it, a small gain moves it.
  CHECK(out[0].get("best_after_us") == Value(100.0));
  CHECK(out[3].get("best_after_us") == Value(75.0));
  // The version holding the floor a gain is measured against: a floor moved
  // by a version rejected only for a small gain counts (self-test v6 -> v7).
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].string_or("version") == "v7") CHECK(out[i].string_or("best_before_version") == "v6");
  CHECK(json::to_line(out[0]).find(R"("selection": "baseline", "reason": null, "improve_pct": null, )") !=
        std::string::npos);
  CHECK(out[7].string_or("selection") == "deadend");
  // Every reverted row after the baseline names the code it was tried on,
  // whatever the ratchet made of it (a dead end, noise, nothing said).
  std::size_t reverted = 0;
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (rows[i].get("has_commit").truthy() && rows[i].get("reverted").truthy()) {
      ++reverted;
      INFO(rows[i].string_or("version"));
      CHECK(out[i].get("best_before_version").is_string());
    }
  CHECK(reverted >= 1);
  auto m = ladder::milestone_row(rows, ladder::select(rows, kSpec).milestones[1]);
  CHECK(m.string_or("kind") == "mega");
  CHECK(m.get("improve_pct") == Value(24.92));
}

TEST_CASE("running minimum and reason grouping", "[ladder]") {
  auto mins = ladder::running_minimum(ladder::self_test_rows());
  std::vector<std::pair<std::string, double>> expect{
      {"v1", 100.0}, {"v2", 99.9}, {"v3", 75.0}, {"v6", 60.0}, {"v7", 58.0}};
  CHECK(mins == expect);
  CHECK(ladder::reason_group("under 1.5% (0.10%)") == "under 1.5%");
  CHECK(ladder::reason_group("a (x) b (y)") == "a");
  CHECK(ladder::reason_group("reverted, nothing said") == "reverted, nothing said");
  auto r = ladder::select(ladder::self_test_rows(), kSpec);
  auto groups = ladder::group_reasons(r.rejections);
  REQUIRE(groups.size() == 4);
  CHECK(groups[0] == std::pair<std::string, std::size_t>{"under 1.5%", 2});
  CHECK(groups[1].first == "harness re-baselining");
  CHECK(groups[2].first == "declares no change");
  CHECK(groups[3].first == "infrastructure");
}

TEST_CASE("version rows are read with their line named on error", "[ladder]") {
  auto rows = ladder::parse_version_rows("{\"version\": \"v1\"}\n\n{\"version\": \"v2\"}\n", "w.jsonl");
  CHECK(rows.size() == 2);
  CHECK_THROWS_WITH(ladder::parse_version_rows("{\"version\": \"v1\"}\n[1]\n", "w.jsonl"),
                    Catch::Contains("w.jsonl:2") && Catch::Contains("object"));
  CHECK_THROWS_WITH(ladder::parse_version_rows("\n{\"n\": 1}\n", "w.jsonl"), Catch::Contains("w.jsonl:2"));
  CHECK_THROWS_WITH(ladder::parse_version_rows("{\"version\": \"v1\"}\n{oops\n", "w.jsonl"),
                    Catch::Contains("w.jsonl:2"));
}

TEST_CASE("the ratchet's verdict: baseline to final, not the running minimum", "[ladder]") {
  // v2 is a rejected unexplained win: it sets the running minimum (3.9 us),
  // never the verdict.
  auto rows = json::parse_lines(R"j({"version": "v1", "geomean_us": 61.8, "selection": "baseline"}
{"version": "v2", "geomean_us": 3.9, "selection": "rejected", "reason": "unexplained win (16x ...)"}
{"version": "v3", "geomean_us": 30.0, "selection": "mega"}
{"version": "v4", "geomean_us": 22.5, "selection": "final"}
{"version": "v5", "selection": "deadend"})j",
                                "rows");
  auto meta = workspace::TraceMeta::from_json(
      json::parse(R"({"vendor": "nvidia", "arch": "blackwell", "product": "b200"})", "meta"));
  CHECK(ladder::ratchet_verdict(rows, meta) ==
        "**What the run achieved:** the best-so-far ratchet took the geomean from 61.80 us (`v1`) to 22.50 us "
        "(`v4`), 2.75x faster, over 5 versions and 3 milestones, on nvidia blackwell b200.");
  CHECK(ladder::running_minimum(rows).back().second == 3.9);
  // No final: the last accepted milestone. No hardware stated: said so.
  rows.pop_back();
  rows.pop_back();
  CHECK_THAT(ladder::ratchet_verdict(rows, workspace::TraceMeta()),
             Catch::Contains("to 30.00 us (`v3`), 2.06x faster, over 3 versions and 2 milestones, on hardware the "
                             "trace does not state."));
  // No measured baseline: no speed-up is claimed.
  CHECK_THAT(ladder::ratchet_verdict({rows[1]}, meta), Catch::Contains("no speed-up can be stated; over 1 version"));
}
