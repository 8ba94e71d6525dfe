// Loops that take whole chunks and leave the rest (code/tailless_loops;
// issue 25, kit 33).
#include <catch2/catch.hpp>

#include "code/tailless_loops.hpp"
#include "code/unguarded_tile_loops.hpp"

using namespace otm;

namespace {

std::string cuda(const std::string &body) {
  return "_src = r\"\"\"\n__global__ void xent(const bf16* x, float* out, int v_lo, int v_hi) {\n  const int v0 = "
         "v_lo;\n" +
         body + "}\n\"\"\"\n";
}

} // namespace

TEST_CASE("a chunked loop with nothing after it for the rest", "[issue25][loops]") {
  const std::string loop =
      "  for (int v = v0 + threadIdx.x * 8; v + 8 <= min(v0 + BLOCK_V, v_hi); v += THREADS * 8) {\n"
      "    acc += load8(x + v);\n  }\n";
  auto found = code::tailless_loops(cuda(loop + "  out[0] = acc;\n"), code::Language::Python);
  REQUIRE(found.size() == 1);
  CHECK(found[0].chunk == 8);
  CHECK(found[0].bound == "min(v0 + BLOCK_V, v_hi)");
  CHECK_THAT(found[0].head, Catch::StartsWith("for (int v = v0 + threadIdx.x * 8; v + 8 <="));
  // A tail loop after it takes the rest.
  CHECK(code::tailless_loops(cuda(loop + "  for (int v = tail; v < v_hi; ++v) acc += x[v];\n"), code::Language::Python)
            .empty());
  CHECK(code::tailless_loops(cuda(loop + "  if (rest < v_hi) acc += x[rest];\n"), code::Language::Python).empty());
  // A loop over single elements, or one written `v < v_hi`, leaves nothing.
  CHECK(code::tailless_loops(cuda("  for (int v = v0; v + 1 <= v_hi; ++v) acc += x[v];\n"), code::Language::Python)
            .empty());
  CHECK(
      code::tailless_loops(cuda("  for (int v = v0; v < v_hi; v += 8) acc += load8(x + v);\n"), code::Language::Python)
          .empty());
}

TEST_CASE("a tile loop bounded by its block alone inside a walk over the size", "[issue25][loops]") {
  // Kit 59, L07: a fused AdamW step whose tile loop never checks `o < n`.
  const std::string head = "constexpr int CHUNK = 1024;\nconstexpr int VEC = 8;\n"
                           "__global__ void step(float* P, const float* G, int n) {\n"
                           "  for (int blk = blockIdx.x * CHUNK; blk < n; blk += gridDim.x * CHUNK) {\n"
                           "    for (int i = threadIdx.x * VEC; i < CHUNK; i += 256 * VEC) {\n"
                           "      const int o = blk + i;\n";
  const std::string tail = "    }\n  }\n}\n";
  auto found = code::unguarded_tile_loops(head + "      P[o] -= G[o];\n" + tail, code::Language::CFamily);
  REQUIRE(found.size() == 1);
  CHECK(found[0].block == "CHUNK");
  CHECK(found[0].size == "n");
  CHECK(found[0].line == 5);
  CHECK(found[0].head == "for (int i = threadIdx.x * VEC; i < CHUNK; i += 256 * VEC)");
  // A guard on the element index, or a tile bounded by the size, reads no further.
  CHECK(code::unguarded_tile_loops(head + "      if (o < n) P[o] -= G[o];\n" + tail, code::Language::CFamily).empty());
  CHECK(code::unguarded_tile_loops("__global__ void f(float* P, int n) {\n  for (int blk = 0; blk < n; blk += 64) {\n"
                                   "    for (int i = 0; i < min(64, n - blk); ++i) P[blk + i] = 0;\n  }\n}\n",
                                   code::Language::CFamily)
            .empty());
  // A walk over rows the block spans whole has no tail of it.
  CHECK(code::unguarded_tile_loops("#define N_COLS 2048\n__global__ void f(float* y, int n_rows) {\n"
                                   "  for (int row = blockIdx.x; row < n_rows; row += gridDim.x) {\n"
                                   "    for (int i = threadIdx.x; i < N_COLS; i += 256) y[row * N_COLS + i] = 0;\n"
                                   "  }\n}\n",
                                   code::Language::CFamily)
            .empty());
  // A block the file gives several values, or none, is no constant.
  CHECK(code::unguarded_tile_loops(
            "__global__ void f(float* P, int n, int m) {\n  for (int blk = 0; blk < n; blk += m) {\n"
            "    for (int i = 0; i < m; ++i) P[blk + i] = 0;\n  }\n}\n",
            code::Language::CFamily)
            .empty());
}
