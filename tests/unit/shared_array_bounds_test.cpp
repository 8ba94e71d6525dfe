// __shared__ arrays indexed past their extent (code/shared_array_bounds.hpp).
#include <catch2/catch.hpp>

#include <string>

#include "code/shared_array_bounds.hpp"

using namespace otm;

namespace {

// A RoPE-like kernel: each lane handles 8 elements of a half head. `lane_map`
// is how the element index is made, `guard` what stands around the loop.
std::string kernel(const std::string &lane_map, const std::string &guard_open = "",
                   const std::string &guard_close = "") {
  return "CUDA_SRC = r'''\n"
         "#define HALF 64\n"
         "#define TOKENS 8\n"
         "__global__ void rope(float* out, const float* cs) {\n"
         "  __shared__ float s_cos[TOKENS][HALF];\n"
         "  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;\n"
         "  for (int ts = 0; ts < TOKENS; ++ts) {\n" +
         guard_open +
         "    for (int j = 0; j < 4; ++j) {\n"
         "      const int d = " +
         lane_map +
         ";\n"
         "      out[ts * HALF + d] = s_cos[ts][d] + s_cos[ts][d + 1];\n"
         "    }\n" +
         guard_close +
         "  }\n"
         "}\n"
         "'''\n";
}

} // namespace

TEST_CASE("shared arrays: 32 lanes of 8 elements index a 64-wide row past its end", "[code][issue25]") {
  auto o = code::shared_array_overruns(kernel("lane * 8 + 2 * j"), code::Language::Python);
  REQUIRE(o.size() == 2);
  CHECK(o[0].array == "s_cos");
  CHECK(o[0].extent == "HALF");
  CHECK(o[0].size == 64);
  CHECK(o[0].index == "d");
  CHECK(o[0].reaches == 254);
  CHECK(o[1].index == "d + 1");
  CHECK(o[1].reaches == 255);
  CHECK_THAT(o[0].why(), Catch::Contains("reaches 254 where that dimension holds 64"));
}

TEST_CASE("shared arrays: an index inside the extent, a guarded one, or one of unknown range is not flagged",
          "[code][issue25]") {
  // 8 lanes' worth: lane * 2 + ... stays under 64.
  CHECK(code::shared_array_overruns(kernel("lane * 2 + (j >> 2)"), code::Language::Python).empty());
  // A guard on the lane that the index is made of.
  CHECK(code::shared_array_overruns(kernel("lane * 8 + 2 * j", "    if (lane < HALF / 8) {\n", "    }\n"),
                                    code::Language::Python)
            .empty());
  // An early exit naming it.
  CHECK(
      code::shared_array_overruns(kernel("lane * 8 + 2 * j", "    if (lane >= 8) continue;\n"), code::Language::Python)
          .empty());
  // A name whose range is unknown.
  CHECK(code::shared_array_overruns(kernel("warp * 8 + 2 * j"), code::Language::Python).empty());
}
