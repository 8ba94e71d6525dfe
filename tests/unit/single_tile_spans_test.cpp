#include <catch2/catch.hpp>

#include "code/single_tile_spans.hpp"

using namespace otm;

TEST_CASE("offsets that cover one tile of a size and nothing walks past it", "[code][issue25]") {
  // Kit 61, J20 and J21: a "whole row in one tile" argmax, BLOCK_N from a
  // launch configuration dict, on rows longer than the tile.
  const std::string kernel = "CONFIG = {\n    \"BLOCK_N\": 4096,\n    \"num_warps\": 8,\n}\n"
                             "@triton.jit\n"
                             "def k(x_ptr, out_ptr, M, N, BLOCK_N: tl.constexpr, ROWS: tl.constexpr):\n"
                             "    cols = tl.arange(0, BLOCK_N)\n"
                             "    cols = tl.max_contiguous(tl.multiple_of(cols, 8), 8)\n"
                             "    for rr in tl.static_range(ROWS):\n"
                             "        v = tl.load(x_ptr + rr * N + cols, mask=cols < N, other=float(\"-inf\"))\n"
                             "        tl.store(out_ptr + rr, tl.argmax(v, axis=0))\n";
  auto spans = code::single_tile_spans(kernel);
  REQUIRE(spans.size() == 1);
  CHECK(spans[0].offsets == "cols = tl.arange(0, BLOCK_N)");
  CHECK(spans[0].block == "BLOCK_N");
  CHECK(spans[0].size == "N");
  CHECK(spans[0].largest == 4096);
  // An autotune list: the largest tile it can pick.
  auto tuned = code::single_tile_spans(
      "configs = [triton.Config({'BLOCK_D': 64}), triton.Config({'BLOCK_D': 256})]\n"
      "    offs_d = gl.arange(0, BLOCK_D, layout=L)\n    gl.store(o + offs_d, v, mask=offs_d < D)\n");
  REQUIRE(tuned.size() == 1);
  CHECK(tuned[0].largest == 256);
  // A loop over the size walks the row: not one tile.
  CHECK(code::single_tile_spans("BLOCK_N = 1024\n    cols = tl.arange(0, BLOCK_N)\n"
                                "    for start in range(0, N, BLOCK_N):\n"
                                "        v = tl.load(x + start + cols, mask=start + cols < N)\n")
            .empty());
  // Offsets moved off zero: a walk too.
  CHECK(code::single_tile_spans("BLOCK_N = 1024\n    cols = tl.arange(0, BLOCK_N)\n"
                                "    cols += pid * BLOCK_N\n    v = tl.load(x + cols, mask=cols < N)\n")
            .empty());
  // A tile the file gives no integer (the host sizes it to the row), or
  // offsets no mask bounds, decide nothing.
  CHECK(code::single_tile_spans("    cols = tl.arange(0, BLOCK)\n    v = tl.load(x + cols, mask=cols < n_cols)\n"
                                "BLOCK = triton.next_power_of_2(n_cols)\n")
            .empty());
  CHECK(code::single_tile_spans("BLOCK = 64\n    cols = tl.arange(0, BLOCK)\n    v = tl.load(x + cols)\n").empty());
}
