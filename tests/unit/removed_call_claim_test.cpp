// A cause saying the change removes calls of a function, checked against
// the lines the diff removes (distill/removed_call_claim; issue 25, kit 59).
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "distill/removed_call_claim.hpp"
#include "error/error.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("a cause removing calls the code before the change never made", "[distill][issue25]") {
  const auto rule =
      distill::RemovedCallRule::from_json(config::Config::defaults().data().get("removed_call_claims"), "shipped");
  // Kit 59, L08: the host already computed the bias corrections.
  const std::string rewritten = "                pp[j] -= lr * (mm[j] / bc1) / (sqrtf(vv[j] / bc2) + eps);\n";
  auto why = rule.contradiction(
      "bias corrections are folded into step_size and 1/sqrt(bc2) on the host, removing two pow calls per element.",
      rewritten);
  REQUIRE(why);
  CHECK(*why == "the cause says the change removes `pow` calls (\"removing two pow calls\"), but no line the diff "
                "removes calls it: the code before the change had none to remove");
  // The removed lines call it, under any spelling that holds the name.
  CHECK_FALSE(rule.contradiction("removing two pow calls per element.",
                                 "    bc1 = 1.0 - powf(b1, step);\n    bc2 = 1.0 - std::pow(b2, step);\n"));
  CHECK_FALSE(rule.contradiction("Eliminates the redundant exp calls.", "    e = tl.exp(x - m)\n"));
  // Words that name no function decide nothing; nor does a cause without such a claim.
  CHECK_FALSE(rule.contradiction("removing two kernel calls", rewritten));
  CHECK_FALSE(rule.contradiction("fewer pow evaluations per element", rewritten));
  // A malformed section names itself.
  CHECK_THROWS_AS(
      distill::RemovedCallRule::from_json(json::parse(R"({"claims": ["removes \\w+ calls"], "not_names": "x"})"), "x"),
      Error);
}
