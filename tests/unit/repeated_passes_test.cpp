// A cause saying the data is read once, checked against a kernel that reads
// one pointer in two loops (code::pointer_read_in_two_passes,
// distill::SinglePassRule; issue 25, kit 38 Q08).
#include <catch2/catch.hpp>

#include "code/repeated_passes.hpp"
#include "config/config.hpp"
#include "distill/single_pass_claim.hpp"
#include "error/error.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

// A load_inline cross-entropy kernel: two passes over the row (max, then
// the sum of exponentials), or one online pass.
std::string cuda_rows(bool two_passes) {
  std::string loops =
      two_passes ? R"(  for (int v = threadIdx.x; v < V; v += THREADS) m = fmaxf(m, __bfloat162float(__ldcs(x + v)));
  m = warp_max(m);
  for (int v = threadIdx.x; v < V; v += THREADS) s += __expf(__bfloat162float(__ldcs(x + v)) - m);  // second pass
)"
                 : R"(  for (int v = threadIdx.x; v < V; v += THREADS) {
    float xv = __bfloat162float(__ldcs(x + v));
    float mn = fmaxf(m, xv);
    s = s * __expf(m - mn) + __expf(xv - mn);
    m = mn;
  }
)";
  return std::string(R"(from torch.utils.cpp_extension import load_inline

_SRC = r"""
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__global__ void ce_kernel(const __nv_bfloat16* __restrict__ logits, float* __restrict__ lse, int V) {
  const int row = blockIdx.x;
  const __nv_bfloat16* x = logits + (size_t)row * V;
  float m = -1e30f, s = 0.f;
)") + loops +
         R"(  for (int v = threadIdx.x; v < V; v += THREADS) lse[row] = m + __logf(s);
}
"""
)";
}

std::string triton_rows(bool two_passes) {
  std::string body = two_passes ? R"(    m = -float("inf")
    for off in range(0, V, BLOCK):
        x = tl.load(x_ptr + row * V + off + cols, mask=off + cols < V, other=-float("inf"))
        m = tl.maximum(m, tl.max(x, axis=0))
    s = 0.0
    for off in range(0, V, BLOCK):
        x = tl.load(x_ptr + row * V + off + cols, mask=off + cols < V, other=-float("inf"))
        s += tl.sum(tl.exp(x - m), axis=0)
)"
                                : R"(    m = -float("inf")
    s = 0.0
    for off in range(0, V, BLOCK):
        x = tl.load(x_ptr + row * V + off + cols, mask=off + cols < V, other=-float("inf"))
        mn = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - mn) + tl.sum(tl.exp(x - mn), axis=0)
        m = mn
)";
  return std::string(R"(import triton
import triton.language as tl


@triton.jit
def _ce(x_ptr, lse_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
)") + body +
         "    tl.store(lse_ptr + row, m + tl.log(s))\n";
}

} // namespace

TEST_CASE("a pointer read in two sibling loops is a second pass", "[issue25][passes]") {
  auto c = code::pointer_read_in_two_passes(cuda_rows(true));
  REQUIRE(c);
  CHECK(c->name == "x");
  CHECK(c->second_line == c->first_line + 2);
  CHECK_FALSE(code::pointer_read_in_two_passes(cuda_rows(false)));
  auto t = code::pointer_read_in_two_passes(triton_rows(true));
  REQUIRE(t);
  CHECK(t->name == "x_ptr");
  CHECK_FALSE(code::pointer_read_in_two_passes(triton_rows(false)));
  // A loop nested in another is the same pass; a store is no read.
  CHECK_FALSE(code::pointer_read_in_two_passes(R"(import triton
import triton.language as tl


@triton.jit
def _k(x_ptr, y_ptr, M, N, BLOCK: tl.constexpr):
    for r in range(0, M):
        for off in range(0, N, BLOCK):
            x = tl.load(x_ptr + r * N + off)
            tl.store(y_ptr + r * N + off, x)
        for off in range(0, N, BLOCK):
            tl.store(y_ptr + r * N + off, 0.0)
)"));
  CHECK_FALSE(code::pointer_read_in_two_passes("x = 1\n"));
}

TEST_CASE("a cause of data read once is contradicted by a second pass", "[issue25][passes]") {
  const auto rule =
      distill::SinglePassRule::from_json(config::Config::defaults().data().get("single_pass_claims"), "shipped");
  auto why =
      rule.contradiction("logits are touched once; evict_first keeps labels/lse lines resident", cuda_rows(true));
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("\"touched once\"") && Catch::Contains("reads `x` in two loops"));
  CHECK(rule.contradiction("the row is streamed in a single pass", triton_rows(true)));
  // The kernel really reads the data once: no contradiction.
  CHECK_FALSE(rule.contradiction("logits are touched once", cuda_rows(false)));
  CHECK_FALSE(rule.contradiction("reads each logit once instead of twice", triton_rows(false)));
  // A cause that claims no single pass is not read.
  CHECK_FALSE(rule.contradiction("streaming loads leave L2 to the labels", cuda_rows(true)));
  CHECK_THROWS_AS(distill::SinglePassRule::from_json(json::parse(R"({"claims": "x"})"), "t"), Error);
}

TEST_CASE("a pass removed is contradicted by a change that takes out no memory operation", "[distill][issue25]") {
  // Kit 48's U17, kit 46's S13: "Remove a full pass over memory." for a
  // rearrangement of scale arithmetic that kept every load.
  const auto rule =
      distill::SinglePassRule::from_json(config::Config::defaults().data().get("single_pass_claims"), "shipped");
  const auto arithmetic = diff::read_diff("--- a/kernel.py\n+++ b/kernel.py\n@@ -30,3 +30,3 @@\n"
                                          "     w = tl.load(W + offs)\n"
                                          "-    acc += (w - z) * s * x\n"
                                          "+    acc += w * x * s - z * s * x\n");
  auto why = rule.pass_removal_contradiction("Remove a full pass over memory.", arithmetic, true);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("take out no load, store, launch or host tensor operation"));
  // A separate host pass taken out (kit 47's T11, useful), a pass made
  // smaller (kit 46's S05), a C kernel, or no such claim: not judged.
  const auto fused = diff::read_diff("--- a/kernel.py\n+++ b/kernel.py\n@@ -60,3 +60,2 @@\n"
                                     "     kernel[grid](a, b, out)\n"
                                     "-    out = F.silu(out)\n"
                                     "     return out\n");
  CHECK_FALSE(rule.pass_removal_contradiction("Remove a full pass over memory.", fused, true));
  // A C kernel: only a change whose removed lines index, launch and copy
  // nothing (kit 50's W05, the int4 scale arithmetic rewritten) is judged.
  const auto c_arithmetic = diff::read_diff("--- a/kernel.cu\n+++ b/kernel.cu\n@@ -58,3 +58,3 @@\n"
                                            "-                part += (w0 - zp) * sc * x0 + (w1 - zp) * sc * x1;\n"
                                            "+                part += w0 * x0 + w1 * x1; xsum += x0 + x1;\n"
                                            "             }\n");
  CHECK(rule.pass_removal_contradiction("Remove a full pass over memory.", c_arithmetic, false));
  const auto c_load = diff::read_diff("--- a/kernel.cu\n+++ b/kernel.cu\n@@ -58,2 +58,2 @@\n"
                                      "-    float v = x[i] * s[i / 128];\n"
                                      "+    float v = x[i] * sg;\n");
  CHECK_FALSE(rule.pass_removal_contradiction("Remove a full pass over memory.", c_load, false));
  CHECK_FALSE(rule.pass_removal_contradiction("Fewer instructions per element.", arithmetic, true));
}
