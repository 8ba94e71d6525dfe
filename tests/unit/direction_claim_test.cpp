// Which way a cause says a setting moved, against the change text
// (distill/direction_claim; issue 25, kit 32).
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "distill/direction_claim.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

const distill::DirectionClaimRule &shipped() {
  static const auto r =
      distill::DirectionClaimRule::from_json(config::Config::defaults().data().get("direction_claims"), "shipped");
  return r;
}

std::optional<std::string> against(const std::string &mechanism, const std::string &change) {
  return shipped().contradiction(mechanism, change, levers::LeverVocabulary::defaults());
}

} // namespace

TEST_CASE("a cause that says a setting grew, on a change that shrank it", "[distill][issue25]") {
  // Kit 32, U29: the run's stock reason for widening, on the narrowing step.
  const std::string stock = "Wider N tiles raise arithmetic intensity per A-tile load";
  auto why = against(stock, "Moved BLOCK_N 256->128 + num_warps 4->8.");
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("\"Wider N tiles\"") && Catch::Contains("BLOCK_N 256->128"));
  // The widening step it was written for stands.
  CHECK_FALSE(against(stock, "Set BLOCK_N 128->256."));
  // Warps and stages, either way.
  CHECK(against("more warps keep more loads in flight", "num_warps 8 -> 4 for the short rows."));
  CHECK_FALSE(against("more warps keep more loads in flight", "num_warps 4 -> 8 for the long rows."));
  CHECK(against("fewer stages free shared memory for a second CTA", "num_stages 2->4."));
  // A change that states no numbers, or names another lever, decides nothing.
  CHECK_FALSE(against(stock, "Retuned the tile shape."));
  CHECK_FALSE(against(stock, "num_warps 8 -> 4."));
  // "More blocks" is a count, not a size: no block-size claim.
  CHECK_FALSE(against("more blocks fill the SMs", "BLOCK_N 256->128."));
}

TEST_CASE("direction claims are data", "[distill][issue25]") {
  auto custom = distill::DirectionClaimRule::from_json(
      json::parse(R"({"split-k": {"up": ["more"], "down": ["fewer"], "subjects": ["splits?"]}})"), "test");
  CHECK(custom.contradiction("more splits spread K", "split-K 4->2 on the long rows.",
                             levers::LeverVocabulary::defaults()));
  auto off = distill::DirectionClaimRule::from_json(json::Value(), "test");
  CHECK_FALSE(off.contradiction("Wider N tiles", "BLOCK_N 256->128.", levers::LeverVocabulary::defaults()));
  CHECK_THROWS_AS(distill::DirectionClaimRule::from_json(json::parse(R"({"x": {"up": ["more"], "down": []}})"), "test"),
                  Error);
  CHECK_THROWS_AS(distill::DirectionClaimRule::from_json(
                      json::parse(R"({"x": {"up": ["("], "down": ["less"], "subjects": ["a"]}})"), "test"),
                  Error);
}
