// A cause about warpgroups, checked against a target without them and a
// kernel whose MMA one thread issues (distill::WarpgroupRule; issue 25,
// kit 39 K34 and K49).
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "distill/warpgroup_claim.hpp"
#include "error/error.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {
workspace::PacketTarget::Scope scope(const char *vendor, const char *product, const char *dsl) {
  workspace::PacketTarget::Scope s;
  s.vendor = vendor, s.product = product, s.dsl = dsl;
  return s;
}
} // namespace

TEST_CASE("a warpgroup cause on a target or kernel without warpgroup MMA issue", "[issue25][warpgroups]") {
  const auto rule =
      distill::WarpgroupRule::from_json(config::Config::defaults().data().get("warpgroup_claims"), "shipped");
  const std::string cause = "two warpgroups split the 128-wide tile so each issues half the MMAs";
  const std::string tcgen05 =
      "@gluon.jit\ndef k(a, b, acc_tmem, bar):\n    tcgen05_mma(a, b, acc_tmem, use_acc=False)\n";
  const std::string wgmma = "@gluon.jit\ndef k(a, b, acc):\n    acc = warpgroup_mma(a, b, acc, is_async=True)\n";
  auto amd = rule.contradiction(cause, scope("amd", "mi300x", "triton"), wgmma);
  REQUIRE(amd);
  CHECK_THAT(*amd, Catch::Contains("a unit of MMA issue the amd target does not have"));
  auto blackwell = rule.contradiction(cause, scope("nvidia", "b200", "gluon"), tcgen05);
  REQUIRE(blackwell);
  CHECK_THAT(*blackwell, Catch::Contains("issues its MMA with `tcgen05_mma`"));
  // K10: a per-warp mma.sync, with no warpgroup MMA beside it.
  const std::string mma_sync = "_SRC = r'''\n__device__ void mma(float* d) {\n  asm "
                               "volatile(\"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
                               "{%0}\" : \"+f\"(d[0]));\n}\n'''\n";
  CHECK(rule.contradiction(cause, scope("nvidia", "h100", "gluon"), mma_sync));
  CHECK_FALSE(rule.contradiction(cause, scope("nvidia", "h100", "gluon"), mma_sync + wgmma));
  // Hopper's wgmma: the cause stands; a cause about something else is not read.
  CHECK_FALSE(rule.contradiction(cause, scope("nvidia", "h100", "gluon"), wgmma));
  CHECK_FALSE(
      rule.contradiction("a deeper TMA ring hides the load latency", scope("nvidia", "h100", "gluon"), tcgen05));
  CHECK_FALSE(rule.contradiction("a deeper TMA ring hides the load latency", scope("amd", "mi300x", "triton"), wgmma));
  // Kit 40, L24: Triton's `tl.dot` on B200 is a tcgen05 MMA, with no MMA in the code to read.
  const std::string triton_dot = "@triton.jit\ndef k(a, b):\n    acc = tl.dot(a, b)\n";
  auto b200 = rule.contradiction(cause, scope("nvidia", "b200", "triton"), triton_dot);
  REQUIRE(b200);
  CHECK_THAT(*b200, Catch::Contains("triton on b200 issues its MMA from one thread"));
  CHECK_FALSE(rule.contradiction(cause, scope("nvidia", "h100", "triton"), triton_dot));
  CHECK_THROWS_AS(distill::WarpgroupRule::from_json(json::parse(R"({"vendors_without": "amd"})"), "t"), Error);
  CHECK_THROWS_AS(
      distill::WarpgroupRule::from_json(json::parse(R"({"dsl_products_without": {"triton": "b200"}})"), "t"), Error);
  CHECK_THROWS_AS(distill::WarpgroupRule::from_json(json::parse(R"({"claims": "x"})"), "t"), Error);
}
