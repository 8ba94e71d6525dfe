#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "distill/cache_level_claim.hpp"
#include "error/error.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("a cause naming a cache level the change's qualifiers do not act on is contradicted", "[distill][issue25]") {
  // Kit 55, P27: "Stop the streamed operand from polluting L2." for a
  // change adding `.L1::no_allocate` only.
  const auto rule =
      distill::CacheLevelRule::from_json(config::Config::defaults().data().get("cache_level_claims"), "shipped");
  const std::string l1 = "asm volatile(\"ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];\" : ...);\n";
  auto why = rule.contradiction("Stop the streamed operand from polluting L2.", l1);
  REQUIRE(why);
  CHECK(*why == "the cause names the L2 cache, but the cache qualifiers the change adds act on L1 only "
                "(`.L1::no_allocate`): the code contradicts it");
  // The level it names is in the code, or the code names no level: nothing.
  CHECK_FALSE(rule.contradiction("The streamed operand no longer allocates in L1.", l1));
  CHECK_FALSE(rule.contradiction("Stop the streamed operand from polluting L2.",
                                 "ld.global.L1::no_allocate.L2::evict_first.v4.u32"));
  CHECK_FALSE(
      rule.contradiction("Stop the streamed operand from polluting L2.", "x = tl.load(p, cache_modifier='.cg')"));
  CHECK_FALSE(rule.contradiction("Fewer instructions per byte.", l1));
  // A malformed section names itself.
  CHECK_THROWS_AS(distill::CacheLevelRule::from_json(json::parse(R"({"L1": {"claims": ["L1"], "code": []}})"), "x"),
                  Error);
}
