#include <catch2/catch.hpp>

#include <algorithm>

#include "code/unmasked_loop_steps.hpp"

using namespace otm;

namespace {

// Kit 61, J15: a split-K Gluon kernel whose K loop masks M and N only.
std::string split_k(const std::string &a_mask) {
  return "BLOCK_K = 64\n"
         "@gluon.jit\n"
         "def k(a_ptr, b_ptr, M, N, K, BLOCK_K: gl.constexpr, SPLIT_K: gl.constexpr):\n"
         "    offs_k = gl.arange(0, BLOCK_K, layout=gl.SliceLayout(0, BLK2D))\n"
         "    k_per_split = gl.cdiv(K, SPLIT_K * BLOCK_K) * BLOCK_K\n"
         "    k_start = gl.program_id(1) * k_per_split\n"
         "    for k0 in range(k_start, min(k_start + k_per_split, K), BLOCK_K):\n"
         "        k_idx = k0 + offs_k\n"
         "        a = gl.load(a_ptr + offs_m[:, None] * stride_am + k_idx[None, :],\n"
         "                    mask=" +
         a_mask +
         ", other=0.0)\n"
         "        acc += a\n";
}

} // namespace

TEST_CASE("a loop that steps over a size by a block and loads without checking the step", "[code][issue25]") {
  auto loops = code::unmasked_loop_steps(split_k("offs_m[:, None] < M"));
  REQUIRE(loops.size() == 1);
  CHECK(loops[0].head == "for k0 in range(k_start, min(k_start + k_per_split, K), BLOCK_K):");
  CHECK(loops[0].step == "BLOCK_K");
  CHECK(loops[0].index == "k_idx");
  CHECK(std::find(loops[0].bounds.begin(), loops[0].bounds.end(), "K") != loops[0].bounds.end());
  // The K tail masked, on the continuation line too: nothing to say.
  CHECK(code::unmasked_loop_steps(split_k("(offs_m[:, None] < M) & (k_idx[None, :] < K)")).empty());
  // A tensor descriptor's load is bounded by the descriptor.
  CHECK(code::unmasked_loop_steps("    offs_k = tl.arange(0, BLOCK_K)\n"
                                  "    for k0 in tl.range(0, K, BLOCK_K):\n"
                                  "        a = a_desc.load([pid_m * BLOCK_M, k0])\n")
            .empty());
  // Offsets used inline, masked on another axis.
  auto inline_ = code::unmasked_loop_steps("    offs = tl.arange(0, BLOCK)\n"
                                           "    for c in range(0, N, BLOCK):\n"
                                           "        x = tl.load(x_ptr + row * N + c + offs, mask=row < M)\n");
  REQUIRE(inline_.size() == 1);
  CHECK(inline_[0].index == "c + offs");
  // No mask at all: code::unmasked_block_accesses' to say.
  CHECK(code::unmasked_loop_steps("    offs = tl.arange(0, BLOCK)\n    for c in range(0, N, BLOCK):\n"
                                  "        x = tl.load(x_ptr + c + offs)\n")
            .empty());
}
