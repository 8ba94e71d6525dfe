// Issue 25, kit 47: a failed lever's stated cause checked against the
// step's own code (the launch refused for shared memory, T05, is in
// distill_anti_claims_test.cpp). A setting
// changed in a declaration of several names is still another lever (T04's
// THREADS); an attempt that swaps the function the kernel computes is not
// the lever's (T04's SiLU -> GELU); "a long reduction" for a 4-tap sum is
// contradicted by the loop (T09). Each rule fires here and lets a good
// account pass.
#include <catch2/catch.hpp>

#include "code/loop_bounds.hpp"
#include "config/config.hpp"
#include "diff/diff_reading.hpp"
#include "diff/function_swap.hpp"
#include "distill/change_claims.hpp"
#include "distill/low_precision_sum_claim.hpp"
#include "error/error.hpp"
#include "levers/lever_vocabulary.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("a setting changed inside a declaration of several names is another lever", "[distill][issue25]") {
  const auto vocabulary = levers::LeverVocabulary::from_config(config::Config::defaults());
  const std::string threads = "--- a/kernel.cu\n+++ b/kernel.cu\n@@ -117,3 +117,3 @@\n"
                              "-    constexpr int BM = 128, BN = 256, BK = 64, THREADS = 128, STAGES = 2;\n"
                              "+    constexpr int BM = 128, BN = 256, BK = 64, THREADS = 64, STAGES = 2;\n"
                              "     const int num_tiles = 4;\n";
  auto others =
      distill::other_settings_changed(diff::read_diff(threads), "fast GELU in the epilogue", vocabulary, "cuda");
  REQUIRE(others.size() == 1);
  CHECK(others[0].name == "THREADS");
  // The named lever's own setting is no other lever.
  CHECK(distill::other_settings_changed(diff::read_diff(threads), "THREADS 128 -> 64", vocabulary, "cuda").empty());
}

TEST_CASE("an attempt that swaps the function the kernel computes is not its lever's", "[diff][issue25]") {
  const auto rule =
      diff::FunctionSwapRule::from_json(config::Config::defaults().data().get("function_swap"), "otm-config.json");
  const std::string swap =
      "@@ -67,1 +67,1 @@\n"
      "-__device__ __forceinline__ float act(float g) { return g / (1.f + expf(-g)); }\n"
      "+__device__ __forceinline__ float act(float g) { return 0.5f * g * (1.f + tanh_approx(0.7978845608f * "
      "(g + 0.044715f * g * g * g))); }\n";
  auto s = rule.swapped(swap);
  REQUIRE(s);
  CHECK(s->from == "silu");
  CHECK(s->to == "gelu");
  CHECK_THAT(diff::FunctionSwapRule::why_not_the_lever(*s), Catch::Contains("replaces silu with gelu"));
  // An approximation within one family, the same function written another
  // way, or a comment naming another: no swap.
  CHECK_FALSE(rule.swapped("@@ -1 +1 @@\n-    y = 0.5 * x * (1 + tl.math.erf(x * 0.7071))\n"
                           "+    y = 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)))\n"));
  CHECK_FALSE(rule.swapped("@@ -1 +1 @@\n-    y = x * tl.sigmoid(x)\n+    y = x / (1.0 + tl.exp(-x))\n"));
  CHECK_FALSE(
      rule.swapped("@@ -1 +1 @@\n-    y = x * tl.sigmoid(x)  # silu\n+    y = x * tl.sigmoid(x)  # not gelu\n"));
  // Off without the section; a malformed section is a usage error.
  CHECK_FALSE(diff::FunctionSwapRule::from_json(json::Value(), "x").swapped(swap));
  CHECK_THROWS_AS(diff::FunctionSwapRule::from_json(json::parse(R"({"families": {}})"), "x"), Error);
}

TEST_CASE("a long sum claimed of a loop of 4 taps is contradicted", "[distill][issue25]") {
  const auto rule = distill::LowPrecisionSumRule::from_json(config::Config::defaults().data().get("low_precision_sums"),
                                                            "otm-config.json");
  const std::string conv = "@triton.jit\n"
                           "def k(X, W, Out, WIDTH: tl.constexpr, BLOCK: tl.constexpr):\n"
                           "    acc = tl.zeros((BLOCK,), dtype=tl.bfloat16)\n"
                           "    for j in tl.static_range(WIDTH):\n"
                           "        w = tl.load(W + j)\n"
                           "        acc += (w * tl.load(X + j)).to(acc.dtype)\n"
                           "    tl.store(Out, acc)\n";
  const auto axes = json::parse(R"({"width": 4})");
  CHECK(code::enclosing_loop_bound(conv, 5) == std::optional<std::string>("WIDTH"));
  auto why = rule.short_sum_contradiction("low-precision accumulation over a long reduction", conv, axes);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("at most 4 terms"));
  CHECK_THAT(*why, Catch::Contains("`acc` over `WIDTH`"));
  // A bound the reader cannot tell, a long one, or no claim of length: no.
  CHECK_FALSE(rule.short_sum_contradiction("low-precision accumulation over a long reduction", conv,
                                           json::parse(R"({"width": 4096})")));
  CHECK_FALSE(rule.short_sum_contradiction("low-precision accumulation over a long reduction", conv, json::Value()));
  CHECK_FALSE(rule.short_sum_contradiction("bf16 rounds every tap", conv, axes));
  const std::string strided = "@triton.jit\ndef k(X, K, BK: tl.constexpr):\n    acc = 0.0\n"
                              "    for k in range(0, K, BK):\n        acc += tl.sum(tl.load(X + k))\n";
  CHECK_FALSE(code::enclosing_loop_bound(strided, 4));
  // C: a counted loop with a literal bound.
  const std::string c = "__global__ void k(const float* x, float* y) {\n  __nv_bfloat16 acc = 0;\n"
                        "  #pragma unroll\n  for (int j = 0; j < 4; ++j) {\n    acc += x[j];\n  }\n  *y = acc;\n}\n";
  CHECK(code::enclosing_loop_bound(c, 4) == std::optional<std::string>("4"));
  CHECK_THROWS_AS(distill::LowPrecisionSumRule::from_json(json::parse(R"({"short_sum_terms": 0})"), "x"), Error);
}

TEST_CASE("a number a change text sets its lever to must be in the code", "[distill][issue25]") {
  const auto &vocabulary = levers::LeverVocabulary::defaults();
  // Kit 60, K25: "16 warps" for autotune configs of 4 and 8 warps.
  const char *autotune = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -10,2 +10,9 @@
+def _autotune_configs():
+    cfgs = []
+    for _b, _r in [(256, 1), (512, 2)]:
+        for w in (4, 8):
+            cfgs.append(triton.Config({'CHUNK': _b}, num_warps=w))
+    return cfgs
+
+
+@triton.autotune(configs=_autotune_configs(), key=["n_cols"])
 @triton.jit
)";
  const std::string after =
      "NUM_STAGES = 2\nfor w in (4, 8):\n    cfgs.append(triton.Config({'CHUNK': _b}, num_warps=w))\n";
  auto absent = distill::stated_value_absent(diff::read_diff(autotune), after, "autotuned launch config + 16 warps",
                                             vocabulary, "triton");
  REQUIRE(absent);
  CHECK(absent->lever == "num-warps-tuning");
  CHECK(absent->value == "16");
  CHECK_FALSE(distill::stated_value_absent(diff::read_diff(autotune), after, "autotuned launch config + 8 warps",
                                           vocabulary, "triton"));
  // Kit 60, K22: "K step 32->64" where only BLOCK_M is ever 64.
  const char *stages = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -40,1 +40,1 @@
-    for k0 in tl.range(0, K, BLOCK_K):
+    for k0 in tl.range(0, K, BLOCK_K, num_stages=NUM_STAGES):
)";
  const std::string tiles = "configs = [triton.Config({'BLOCK_M': 64})]\n    kernel[grid](x, BLOCK_K=32)\n";
  auto k_step = distill::stated_value_absent(diff::read_diff(stages), tiles, "tl.range pipelining + K step 32\u219264",
                                             vocabulary, "triton");
  REQUIRE(k_step);
  CHECK(k_step->axis == "K");
  CHECK_FALSE(distill::stated_value_absent(diff::read_diff(stages), "    kernel[grid](x, BLOCK_K=64)\n",
                                           "tl.range pipelining + K step 32\u219264", vocabulary, "triton"));
  // A warp count the code writes as threads per block; a width in bits; a
  // number inside a name.
  const char *threads = R"(diff --git a/kernel.cu b/kernel.cu
--- a/kernel.cu
+++ b/kernel.cu
@@ -1,1 +1,1 @@
-constexpr int THREADS = 128;
+constexpr int THREADS = 256;
)";
  CHECK_FALSE(distill::stated_value_absent(diff::read_diff(threads), "constexpr int THREADS = 256;\n",
                                           "warps per CTA 4\u21928", vocabulary, "cuda"));
  CHECK_FALSE(
      distill::stated_value_absent(diff::read_diff(threads), "", "128-bit vectorised accesses", vocabulary, "cuda"));
  CHECK_FALSE(distill::stated_value_absent(diff::read_diff(threads), "", "exp2 fast-math on", vocabulary, "cuda"));
}
