// A cause that claims every shape checked against each shape's measurement
// (distill/every_shape_claim; issue 25, round 14).
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "distill/every_shape_claim.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

// A packet's measurements: each shape's change in percent against the step
// it is measured against, and the run's per-shape spread (nullopt: none).
json::Value measurements(std::initializer_list<double> changes, std::optional<double> spread = 7.0) {
  json::Value m = json::Value::object();
  json::Value list = json::Value::array();
  int i = 1;
  for (double change : changes) {
    json::Value s = json::Value::object();
    s.set("shape", "shape-" + std::to_string(i++));
    s.set("change_pct", change);
    list.push_back(std::move(s));
  }
  m.set("per_shape_vs_measured_against", list);
  m.set("same_code_shape_spread_pct", spread ? json::Value(*spread) : json::Value());
  return m;
}

const distill::EveryShapeRule &rule() {
  // The built-in configuration's phrases: the ones a run is read with.
  static const auto r =
      distill::EveryShapeRule::from_json(config::Config::defaults().data().get("shape_claims"), "built-in");
  return r;
}

} // namespace

TEST_CASE("every shape: a shape measured slower than the spread contradicts the claim", "[every_shape]") {
  // Round 14: query-head grouping, two of five shapes slower.
  auto why = rule().contradiction("K/V traffic drops by the group size (4x) on every shape.",
                                  measurements({-23.8, -55.18, 12.8, -81.04, 18.55}));
  REQUIRE(why);
  CHECK(why->find("\"on every shape\"") != std::string::npos);
  CHECK(why->find("shape-3 (+12.8 %), shape-5 (+18.55 %)") != std::string::npos);
  CHECK(why->find("(7.0 %)") != std::string::npos);
}

TEST_CASE("every shape: shapes that did not move beside shapes that gained contradict it", "[every_shape]") {
  // Split-KV "for every shape", where the shapes that filled the GPU stayed.
  auto why = rule().contradiction("8x more parallelism for every shape.", measurements({-60, -45, 1.9, 0.4}));
  REQUIRE(why);
  CHECK(why->find("shape-3 (+1.9 %), shape-4 (+0.4 %) moved by no more than") != std::string::npos);
  CHECK(why->find("while shape-1 (-60.0 %), shape-2 (-45.0 %) gained") != std::string::npos);
  // American and British readers write it other ways too.
  CHECK(rule().contradiction("It helps across all the shapes.", measurements({-60, 1})));
  CHECK(rule().contradiction("A win across the board.", measurements({-60, 1})));
}

TEST_CASE("every shape: a claim every shape bears out, or no such claim, passes", "[every_shape]") {
  CHECK_FALSE(rule().contradiction("K/V traffic drops on every shape.", measurements({-20, -30, -25})));
  // Every shape inside the spread: nothing tells a shape's change from noise.
  CHECK_FALSE(rule().contradiction("Fewer instructions on every shape.", measurements({-2, -1.5, -2.2})));
  // A cause that claims no scope is not this rule's to judge.
  CHECK_FALSE(rule().contradiction("K/V traffic drops by the group size.", measurements({-60, 12})));
  // Without the run's spread, or with one measured shape, nothing decides.
  CHECK_FALSE(rule().contradiction("Faster on every shape.", measurements({-60, 12}, std::nullopt)));
  CHECK_FALSE(rule().contradiction("Faster on every shape.", measurements({12})));
}

TEST_CASE("every shape: a malformed section names itself", "[every_shape]") {
  CHECK_THROWS_WITH(distill::EveryShapeRule::from_json(json::parse(R"([1])"), "cfg.json"),
                    Catch::Contains("cfg.json: shape_claims must be an object"));
  CHECK_THROWS_WITH(distill::EveryShapeRule::from_json(json::parse(R"({"every_shape": [""]})"), "cfg.json"),
                    Catch::Contains("shape_claims.every_shape"));
}
