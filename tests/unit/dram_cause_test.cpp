// A cause claiming less DRAM traffic checked against the run's captures
// before and after the change (packet/dram_traffic, distill/dram_cause;
// issue 25, rounds 15-16).
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "distill/dram_cause.hpp"
#include "packet/dram_traffic.hpp"
#include "trace/trace_files.hpp"
#include "trace_fixture.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

json::Value profiler(double ratio) {
  return json::parse(R"({"dram_traffic_vs_measured_against": {"bytes_after_over_before": )" + std::to_string(ratio) +
                     R"(, "before": {"dram_throughput_pct": 12.3, "duration_us": 205.35},
                     "after": {"dram_throughput_pct": 12.6, "duration_us": 199.78}}})");
}

const distill::DramCauseRule &rule() {
  static const auto r =
      distill::DramCauseRule::from_json(config::Config::defaults().data().get("dram_claims"), "built-in");
  return r;
}

} // namespace

TEST_CASE("dram claims: a traffic cut the captures do not show is contradicted", "[dram_cause][issue25]") {
  // Round 16 (G04): the scale loads it removed were cache hits.
  auto why = rule().contradiction("Cuts scale traffic from DRAM by 128x.", profiler(1.0));
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("\"traffic from DRAM\"") &&
                       Catch::Contains("DRAM throughput 12.3 % over 205.35 us before"));
  CHECK(rule().contradiction("One HBM read per row instead of three.", profiler(0.98)));
  // The captures show the cut: the claim stands.
  CHECK_FALSE(rule().contradiction("Cuts scale traffic from DRAM by 128x.", profiler(0.7)));
  // No pair of captures: nothing is contradicted.
  CHECK_FALSE(rule().contradiction("Cuts scale traffic from DRAM by 128x.", json::Value::object()));
  // A cause about something else is not judged here.
  CHECK_FALSE(rule().contradiction("Eight warps split each row finer, so the loads overlap.", profiler(1.0)));
  // The threshold is configuration, and a malformed one is refused.
  auto strict =
      distill::DramCauseRule::from_json(json::parse(R"({"traffic": ["DRAM traffic"], "min_cut_pct": 40})"), "x");
  CHECK(strict.contradiction("Less DRAM traffic.", profiler(0.7)));
  CHECK_THROWS_AS(distill::DramCauseRule::from_json(json::parse(R"({"min_cut_pct": 100})"), "x"), Error);
}

TEST_CASE("dram traffic: a capture's figures from its summary or its metrics", "[packet][issue25]") {
  otm::test::TempDir tmp;
  auto p = tmp.path() / "profiles";
  otm::test::write_text(p / "v0-full" / "summary.txt", "==PROF== ncu\nKernel: w4a16_gemv_kernel\nShape: M2_N8192\n"
                                                       "Duration: 205.35 us\nDRAM Throughput: 12.3 %\n");
  otm::test::write_text(p / "v2_after" / "analysis" / "metrics_key_run.json",
                        R"({"kernel": "w4a16_gemv_kernel", "shape": "M2_N8192", "gpu__time_duration.sum": 199780.0,
                            "dram__throughput.avg.pct_of_peak_sustained_elapsed": 12.6})");
  otm::test::write_text(p / "v3" / "summary.txt", "Kernel: k\nShape: s\nDuration: 1.5 ms\nDRAM Throughput: 50 %\n");
  otm::test::write_text(p / "v4" / "summary.txt", "Kernel: k\nShape: s\nDuration: 1.5 ms\n");
  trace::TraceFiles files(tmp.path(), config::Limits{});
  auto before = packet::capture_figures(files, "v0-full");
  REQUIRE(before);
  CHECK(before->kernel == "w4a16_gemv_kernel");
  CHECK(before->duration_us == Approx(205.35));
  auto after = packet::capture_figures(files, "v2_after");
  REQUIRE(after);
  CHECK(after->duration_us == Approx(199.78));
  CHECK(after->dram_pct == Approx(12.6));
  CHECK(packet::capture_figures(files, "v3")->duration_us == Approx(1500.0));
  CHECK_FALSE(packet::capture_figures(files, "v4")); // no DRAM figure

  // A strategy measured against v0 with v2's capture: the same kernel and
  // shape on both sides, so their bytes compare.
  packet::Context ctx;
  ctx.files = &files;
  workspace::Segment seg;
  seg.record_type = "strategy";
  seg.measured_against = json::parse(R"({"version": "v0"})");
  seg.ncu_dirs = {"v2_after"};
  auto t = packet::dram_traffic(seg, ctx);
  REQUIRE(t);
  CHECK(t->bytes_after_over_before == Approx(12.6 * 199.78 / (12.3 * 205.35)));
  CHECK(t->before.dir == "v0-full");
  // Another kernel or shape on one side: no pair.
  seg.ncu_dirs = {"v3"};
  CHECK_FALSE(packet::dram_traffic(seg, ctx));
}
