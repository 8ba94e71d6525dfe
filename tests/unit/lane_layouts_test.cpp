// A per-lane array filled blocked and read cyclically (code/lane_layouts.hpp).
#include <catch2/catch.hpp>

#include <string>

#include "code/lane_layouts.hpp"

using namespace otm;

namespace {

std::string router(const std::string &label) {
  return "CUDA_SRC = r'''\n"
         "__global__ void topk(const float* logits, int* ids, int E) {\n"
         "  const int lane = threadIdx.x & 31;\n"
         "  float v[8];\n"
         "  for (int q = 0; q < 2; ++q) {\n"
         "    uint4 raw = ld_nc_v4(logits + q * 128 + lane * 4);\n"
         "    v[4 * q] = __uint_as_float(raw.x); v[4 * q + 1] = __uint_as_float(raw.y);\n"
         "    v[4 * q + 2] = __uint_as_float(raw.z); v[4 * q + 3] = __uint_as_float(raw.w);\n"
         "  }\n"
         "  float best = -1e30f; int bi = 0;\n"
         "  for (int i = 0; i < 8; ++i) { int e = " +
         label +
         "; if (v[i] > best) { best = v[i]; bi = e; } }\n"
         "  ids[lane] = bi;\n"
         "}\n"
         "'''\n";
}

} // namespace

TEST_CASE("lane layouts: a blocked vector fill read with cyclic labels", "[code][issue25]") {
  auto m = code::blocked_fill_read_cyclically(router("lane + 32 * i"), code::Language::Python);
  REQUIRE(m);
  CHECK(m->array == "v");
  CHECK(m->load == "lane * 4");
  CHECK(m->label == "lane + 32 * i");
  CHECK(m->line == 11);
  CHECK_THAT(m->why(), Catch::Contains("every element it names is another one"));
}

TEST_CASE("lane layouts: labels that follow the blocked fill, or a scalar strided fill, are not flagged",
          "[code][issue25]") {
  // The matching label: q*128 + lane*4 + r.
  CHECK_FALSE(code::blocked_fill_read_cyclically(router("(i / 4) * 128 + lane * 4 + (i % 4)"), code::Language::Python));
  // A strided scalar fill read cyclically is consistent.
  const std::string strided = "CUDA_SRC = r'''\n"
                              "__global__ void topk(const float* logits, int* ids) {\n"
                              "  const int lane = threadIdx.x & 31;\n"
                              "  float v[8];\n"
                              "  for (int i = 0; i < 8; ++i) v[i] = logits[lane + 32 * i];\n"
                              "  for (int i = 0; i < 8; ++i) { int e = lane + 32 * i; if (v[i] > 0.f) ids[e] = e; }\n"
                              "}\n"
                              "'''\n";
  CHECK_FALSE(code::blocked_fill_read_cyclically(strided, code::Language::Python));
}
