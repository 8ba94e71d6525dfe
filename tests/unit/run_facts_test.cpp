// Issue 25: the run's noise band, read from its own re-measurements of
// byte-identical kernel code (packet/run_facts).
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "error/error.hpp"
#include "packet/run_facts.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

json::Value row(const std::string &version, int n, const std::string &sha, double geomean) {
  json::Value r = json::Value::object();
  r.set("version", version);
  r.set("n", n);
  r.set("sha", sha);
  r.set("geomean_us", geomean);
  return r;
}

} // namespace

TEST_CASE("the noise band is a quantile of the spreads of unchanged code, harness changes left out",
          "[packet][issue25]") {
  // Blobs: A measured 10.0 / 10.3 (3 %), B 20.0 / 20.2 (1 %), C 30.0 / 36.0
  // (20 %: a harness change), D once.
  std::vector<json::Value> rows{row("v1", 1, "s1", 10.0), row("v2", 2, "s2", 10.3), row("v3", 3, "s3", 20.0),
                                row("v4", 4, "s4", 20.2), row("v5", 5, "s5", 30.0), row("v6", 6, "s6", 36.0),
                                row("v7", 7, "s7", 40.0)};
  std::map<std::string, std::string> blob{{"s1", "A"}, {"s2", "A"}, {"s3", "B"}, {"s4", "B"},
                                          {"s5", "C"}, {"s6", "C"}, {"s7", "D"}};
  packet::RunFacts::BlobOf blob_of = [&](const std::string &sha) -> std::optional<std::string> { return blob.at(sha); };
  packet::RunFacts facts(rows, blob_of);
  REQUIRE(facts.same_code_spread_pct());
  CHECK(*facts.same_code_spread_pct() == Approx(3.0));
  // The lower quantile takes the smaller spread; a higher harness cap lets
  // the 20 % pair in.
  packet::NoiseRule low;
  low.spread_quantile = 0.5;
  CHECK(*packet::RunFacts(rows, blob_of, low).same_code_spread_pct() == Approx(1.0));
  packet::NoiseRule wide;
  wide.harness_change_pct = 50;
  CHECK(*packet::RunFacts(rows, blob_of, wide).same_code_spread_pct() == Approx(20.0));
  // No blob reader, or nothing re-measured: no band.
  CHECK_FALSE(packet::RunFacts(rows).same_code_spread_pct());
  CHECK(*facts.geomean_of("v4") == Approx(20.2));
  CHECK_FALSE(facts.geomean_of("v9"));
  // The section is configuration, refused when malformed.
  CHECK(packet::NoiseRule::from_json(json::parse(R"({"spread_quantile": 0.75})"), "x").spread_quantile == 0.75);
  CHECK_THROWS_AS(packet::NoiseRule::from_json(json::parse(R"({"spread_quantile": 2})"), "x"), Error);
  CHECK_THROWS_AS(packet::NoiseRule::from_json(json::parse(R"({"harness_change_pct": "x"})"), "x"), Error);
  CHECK(packet::NoiseRule::from_json(json::parse(R"({"gain_min_shape_share": 0.25})"), "x").gain_min_shape_share ==
        0.25);
  CHECK_THROWS_AS(packet::NoiseRule::from_json(json::parse(R"({"gain_min_shape_share": 1.5})"), "x"), Error);
  CHECK(packet::NoiseRule::from_json(json::parse(R"({"span_own_gain_min_share": 0.3})"), "x").span_own_gain_min_share ==
        0.3);
  CHECK_THROWS_AS(packet::NoiseRule::from_json(json::parse(R"({"span_own_gain_min_share": -1})"), "x"), Error);
  CHECK(packet::NoiseRule::from_json(json::parse(R"({"small_gain_without_band_pct": 3})"), "x")
            .small_gain_without_band_pct == 3);
  CHECK_THROWS_AS(packet::NoiseRule::from_json(json::parse(R"({"small_gain_without_band_pct": -1})"), "x"), Error);
}

TEST_CASE("a reverted step's measurement is not a re-measurement of the code its commit holds", "[packet][issue25]") {
  // Blob A kept at v1 (10.0) and v3 (10.1): 1 %. v2 is a reverted attempt
  // whose commit holds only its memory, so its blob is A, but it measured a
  // fused kernel 5 % faster (trace 775 of round 27: a 6.2 % band).
  std::vector<json::Value> rows{row("v1", 1, "s1", 10.0), row("v2", 2, "s2", 9.5), row("v3", 3, "s3", 10.1)};
  rows[1].set("reverted", true);
  packet::RunFacts::BlobOf blob_of = [](const std::string &) -> std::optional<std::string> { return "A"; };
  packet::RunFacts facts(rows, blob_of);
  REQUIRE(facts.same_code_spread_pct());
  CHECK(*facts.same_code_spread_pct() == Approx(1.0));
  // The kept steps with this code: v1 and v3, not the reverted v2.
  auto same = facts.kept_with_the_same_code("v3");
  REQUIRE(same.size() == 2);
  CHECK(same[0]->version == "v1");
  CHECK(same[1]->version == "v3");
  CHECK(facts.kept_with_the_same_code("v9").empty());
  CHECK(packet::RunFacts(rows).kept_with_the_same_code("v3").empty()); // no blob reader
  // Reverted steps alone re-measure nothing.
  rows[2].set("reverted", true);
  CHECK_FALSE(packet::RunFacts(rows, blob_of).same_code_spread_pct());
}

TEST_CASE("a kept step was made on the last kept commit before it, not on a reverted attempt", "[packet][issue25]") {
  std::vector<json::Value> rows{row("v0", 0, "s0", 10.0), row("v1", 1, "s1", 9.0), row("v2", 2, "s2", 9.5),
                                row("v3", 3, "s3", 8.9), row("v4", 4, "", 8.0)};
  rows[2].set("reverted", true);
  packet::RunFacts facts(rows);
  CHECK(facts.code_made_on("v3") == "s1"); // v2 was reverted
  CHECK(facts.code_made_on("v2") == "s1");
  CHECK(facts.code_made_on("v1") == "s0");
  CHECK(facts.code_made_on("v0").empty());
  CHECK(facts.code_made_on("v5").empty());
  CHECK(facts.code_made_on("v4") == "s3");
  rows[3].set("sha", ""); // a row without a commit is passed over
  CHECK(packet::RunFacts(rows).code_made_on("v4") == "s1");
}

TEST_CASE("the per-shape band is a quantile of each shape's spread over unchanged code", "[packet][issue25]") {
  // Blob A measured twice: shape "small" 2.0 / 2.1 (5 %), "large" 40.0 /
  // 40.4 (1 %); blob B measured twice: "small" 2.0 / 2.02 (1 %), "large"
  // 40.0 / 52.0 (30 %: a harness change, left out); blob C once.
  auto shaped = [](json::Value r, double small, double large) {
    json::Value s = json::Value::object();
    s.set("small", small);
    s.set("large", large);
    r.set("by_shape", std::move(s));
    return r;
  };
  std::vector<json::Value> rows{shaped(row("v1", 1, "s1", 9.0), 2.0, 40.0), shaped(row("v2", 2, "s2", 9.2), 2.1, 40.4),
                                shaped(row("v3", 3, "s3", 9.0), 2.0, 40.0), shaped(row("v4", 4, "s4", 9.1), 2.02, 52.0),
                                shaped(row("v5", 5, "s5", 8.0), 1.0, 30.0)};
  std::map<std::string, std::string> blob{{"s1", "A"}, {"s2", "A"}, {"s3", "B"}, {"s4", "B"}, {"s5", "C"}};
  packet::RunFacts::BlobOf blob_of = [&](const std::string &sha) -> std::optional<std::string> { return blob.at(sha); };
  // Spreads 1, 1, 5: the 0.9 quantile is 5 %, the 0.5 quantile 1 %.
  REQUIRE(packet::RunFacts(rows, blob_of).same_code_shape_spread_pct());
  CHECK(*packet::RunFacts(rows, blob_of).same_code_shape_spread_pct() == Approx(5.0));
  packet::NoiseRule low;
  low.spread_quantile = 0.5;
  CHECK(*packet::RunFacts(rows, blob_of, low).same_code_shape_spread_pct() == Approx(1.0));
  CHECK_FALSE(packet::RunFacts(rows).same_code_shape_spread_pct());
  packet::RunFacts facts(rows, blob_of);
  CHECK(*facts.shape_latency_of("v4", "large") == Approx(52.0));
  CHECK_FALSE(facts.shape_latency_of("v4", "medium"));
  CHECK_FALSE(facts.shape_latency_of("v9", "large"));
}

TEST_CASE("a re-baseline of the harness between two versions means their geomeans do not compare",
          "[packet][issue25]") {
  // Round 14: a milestone measured under the old harness beside a final
  // kernel measured under the L2-flushing one.
  auto rebaseline = row("v3", 3, "s3", 48.0);
  rebaseline.set("subject", "v3: re-baseline under the new harness, kernel unchanged");
  auto reverted = rebaseline;
  reverted.set("reverted", true);
  std::vector<json::Value> rows{row("v1", 1, "s1", 44.0), row("v2", 2, "s2", 43.0), rebaseline,
                                row("v4", 4, "s4", 47.0)};
  packet::RunFacts facts(rows);
  CHECK(facts.measurement_changed_after("v1", "v4"));
  CHECK(facts.measurement_changed_after("v2", "v3")); // the final kernel is the re-baseline itself
  CHECK_FALSE(facts.measurement_changed_after("v3", "v4"));
  CHECK_FALSE(facts.measurement_changed_after("v1", "v2"));
  CHECK_FALSE(facts.measurement_changed_after("v4", "v1"));
  CHECK_FALSE(facts.measurement_changed_after("v1", "v9"));
  rows[2] = reverted; // a reverted declaration changed nothing
  CHECK_FALSE(packet::RunFacts(rows).measurement_changed_after("v1", "v4"));
  // A commit naming no version that changed the harness (kit 61, J19),
  // made before a reverted step: every later row is measured the new way.
  rows[2].set("other_commits_before", json::Value::strings({"harness: flush L2 between iterations"}));
  packet::NoiseRule noise;
  CHECK_FALSE(packet::RunFacts(rows, {}, noise).measurement_changed_after("v1", "v4")); // no patterns
  noise.measurement_change_commits = config::Config::load(std::nullopt).ladder().measurement_change_commits;
  packet::RunFacts harness(rows, {}, noise);
  CHECK(harness.measurement_changed_after("v1", "v4"));
  CHECK(harness.measurement_changed_after("v2", "v3"));
  CHECK_FALSE(harness.measurement_changed_after("v3", "v4"));
}
