#include <catch2/catch.hpp>

#include "code/capped_loops.hpp"

using namespace otm;

TEST_CASE("a loop whose bound caps a size at a constant", "[code][issue25]") {
  // Kit 57, N25: a row-wise argmax that scans min(N, BLOCK_N) columns.
  const char *cuda = "#define BLOCK_N 2048\n"
                     "__global__ void k(const float* x, int N) {\n"
                     "  for (int c = threadIdx.x; c < min(N, BLOCK_N); c += 256) { }\n"
                     "  for (int c = threadIdx.x; c < N; c += 256) { }\n"
                     "}\n";
  auto loops = code::capped_loops(cuda);
  REQUIRE(loops.size() == 1);
  CHECK(loops[0].size == "N");
  CHECK(loops[0].cap_name == "BLOCK_N");
  CHECK(loops[0].cap == 2048);
  CHECK(loops[0].head == "for (int c = threadIdx.x; c < min(N, BLOCK_N); c += 256) { }");
  // A literal cap, in Python.
  auto py = code::capped_loops("for i in range(0, min(n_cols, 4096), BLOCK):\n    pass\n");
  REQUIRE(py.size() == 1);
  CHECK(py[0].size == "n_cols");
  CHECK(py[0].cap == 4096);
  // Two sizes, or a constant the file gives several values, cap nothing.
  CHECK(code::capped_loops("for i in range(min(M, N)):\n    pass\n").empty());
  CHECK(code::capped_loops("B = 64\nB = 128\nfor i in range(min(N, B)):\n    pass\n").empty());
  // Not a loop's bound.
  CHECK(code::capped_loops("#define B 64\nint n = min(N, B);\n").empty());
}
