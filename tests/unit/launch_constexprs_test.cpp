// A JIT kernel's constexpr that its launch leaves unsupplied
// (code/launch_constexprs.hpp): kit 48's U14, kit 46's S28, kit 45's R09,
// each a final kernel whose autotune decorator sat on a helper.
#include <catch2/catch.hpp>

#include "code/launch_constexprs.hpp"

using namespace otm;

namespace {

std::string module(const std::string &decorators, const std::string &launch_keywords) {
  return "import triton\nimport triton.language as tl\n\n"
         "_CONFIGS = [triton.Config({'BLOCK_N': 64}, num_warps=4)]\n\n" +
         decorators +
         "@triton.jit\n"
         "def _kernel(x_ptr, y_ptr, N,  # sizes\n"
         "            BLOCK_N: tl.constexpr,  # the tile\n"
         "            EVEN: tl.constexpr = True):\n"
         "    offs = tl.arange(0, BLOCK_N)\n"
         "    tl.store(y_ptr + offs, tl.load(x_ptr + offs))\n\n\n"
         "def run(x, y):\n"
         "    grid = lambda meta: (triton.cdiv(x.numel(), meta['BLOCK_N']),)\n"
         "    _kernel[grid](x, y, x.numel()" +
         launch_keywords + ")\n";
}

} // namespace

TEST_CASE("a constexpr the launch leaves unsupplied is found", "[code][issue25]") {
  // The autotune decorator on a helper, not on the launched kernel.
  const std::string helper = "@triton.autotune(configs=_CONFIGS, key=['N'])\n@triton.jit\ndef _silu(x):\n"
                             "    return x * tl.sigmoid(x)\n\n\n";
  auto u = code::unsupplied_constexprs(helper + module("", ""));
  REQUIRE(u.size() == 1);
  CHECK(u[0].kernel == "_kernel");
  CHECK(u[0].parameter == "BLOCK_N");
  // Supplied by keyword, by position, by the kernel's own autotune (its
  // configs a module list), or given a default: nothing.
  CHECK(code::unsupplied_constexprs(module("", ", BLOCK_N=128")).empty());
  CHECK(code::unsupplied_constexprs(module("", ", 128")).empty());
  CHECK(code::unsupplied_constexprs(module("@triton.autotune(configs=_CONFIGS, key=['N'])\n", "")).empty());
  // A launch through *args is not judged; a file with no launch gives nothing.
  CHECK(code::unsupplied_constexprs(module("", ", *extra")).empty());
  CHECK(code::unsupplied_constexprs("@triton.jit\ndef k(X, B: tl.constexpr):\n    pass\n").empty());
}

TEST_CASE("the change that left a constexpr unsupplied is told from one that inherits it", "[code][issue25]") {
  // Kit 49, V08: the step that put the autotune on the helper and stopped
  // passing BLOCK_N; a later step of the same file changes something else.
  const code::UnsuppliedConstexpr u{"_kernel", "BLOCK_N", 12};
  CHECK(code::diff_leaves_it_unsupplied("@@ -1,2 +1,2 @@\n-    _kernel[grid](x, y, N, BLOCK_N=64)\n"
                                        "+    _kernel[grid](x, y, N)\n",
                                        u));
  CHECK(code::diff_leaves_it_unsupplied("@@ -1 +1,2 @@\n+@triton.autotune(configs=_CONFIGS, key=['N'])\n"
                                        " @triton.jit\n",
                                        u));
  CHECK_FALSE(code::diff_leaves_it_unsupplied("@@ -1 +1 @@\n-    acc = tl.zeros((B,), tl.float32)\n"
                                              "+    acc = tl.zeros((B,), tl.bfloat16)\n",
                                              u));
  CHECK_THAT(code::why_it_cannot_launch(u), Catch::Contains("supplies its constexpr `BLOCK_N` by neither keyword"));
}
