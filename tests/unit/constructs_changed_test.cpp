#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "diff/diff_reading.hpp"
#include "distill/constructs_changed.hpp"
#include "levers/lever_vocabulary.hpp"

using namespace otm;

namespace {

std::string said_of(const std::string &diff_text, const char *dsl) {
  static const auto vocabulary = levers::LeverVocabulary::from_config(config::Config::defaults());
  return distill::constructs_changed(diff::read_diff(diff_text), vocabulary, dsl);
}

} // namespace

TEST_CASE("a label's mechanism is said with the constructs the change adds and drops", "[distill][issue25]") {
  // Kit 52, Y04: "Cheaper transcendental/dequant path." for `tl.exp` made
  // `tl.exp2`; kit 51, X07: "Cheaper reduction." for a warp shuffle.
  CHECK(said_of("diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                "@@ -3,2 +3,2 @@ def k(x):\n"
                "-    e = tl.exp(x - m)\n"
                "+    e = tl.exp2((x - m) * 1.4426950408889634)\n"
                "     s = tl.sum(e, 0)\n",
                "triton") == " In the code, the change adds `tl.exp2` and drops `tl.exp`.");
  CHECK(said_of("diff --git a/kernel.cu b/kernel.cu\n--- a/kernel.cu\n+++ b/kernel.cu\n"
                "@@ -10,2 +10,3 @@ __global__ void k(float *x) {\n"
                "-  float v = tree_reduce(x);\n"
                "+  float v = x[threadIdx.x];\n"
                "+  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);\n"
                "   x[0] = v;\n",
                "cuda") == " In the code, the change adds `__shfl_xor_sync`.");
  // A setting changed is on both sides: no construct in or out.
  CHECK(said_of("diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                "@@ -9,2 +9,2 @@ def launch(x):\n"
                "-    k[(1,)](x, BLOCK_N=1024, num_warps=4)\n"
                "+    k[(1,)](x, BLOCK_N=1024, num_warps=8)\n",
                "triton")
            .empty());
}
