// code::expand_of_an_unsliced_tensor: a Gluon kernel expanding a 1-D
// tensor in a BlockedLayout to 2-D does not compile (stop 44, round 17's
// R19: a reference kernel quoted as runnable).
#include <catch2/catch.hpp>

#include "code/gluon_layouts.hpp"

using namespace otm;

namespace {

const char *kHead = "@gluon.jit\n"
                    "def k(x_ptr, n, BLOCK: gl.constexpr, VEC: gl.constexpr):\n"
                    "    BL1: gl.constexpr = gl.BlockedLayout(size_per_thread=[VEC], threads_per_warp=[32],\n"
                    "                                         warps_per_cta=[4], order=[0])\n"
                    "    BL2: gl.constexpr = gl.BlockedLayout([1, VEC], [1, 32], [4, 1], [1, 0])\n";

} // namespace

TEST_CASE("a 1-D tensor in a BlockedLayout expanded to 2-D cannot compile in Gluon", "[code][issue25]") {
  const std::string bad = std::string(kHead) + "    tok = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=BL1)\n"
                                               "    x = gl.load(x_ptr + tok[:, None] * n)\n";
  auto e = code::expand_of_an_unsliced_tensor(bad);
  REQUIRE(e);
  CHECK(e->tensor == "tok");
  CHECK(e->layout == "BL1");
  CHECK(e->use == "tok[:, None]");
  CHECK_THAT(e->why(), Catch::Contains("SliceLayout"));
  CHECK(code::expand_of_an_unsliced_tensor(std::string(kHead) + "    c = gl.arange(0, BLOCK, layout=BL1)\n"
                                                                "    y = gl.expand_dims(c, 0)\n"));
}

TEST_CASE("a tensor in a SliceLayout, or laid out again, expands in Gluon", "[code][issue25]") {
  // The slice of the 2-D parent: what expand_dims takes.
  CHECK_FALSE(code::expand_of_an_unsliced_tensor(std::string(kHead) +
                                                 "    rows = gl.arange(0, BLOCK, layout=gl.SliceLayout(1, BL2))\n"
                                                 "    x = gl.load(x_ptr + rows[:, None] * n)\n"));
  // Converted before the expansion.
  CHECK_FALSE(code::expand_of_an_unsliced_tensor(std::string(kHead) +
                                                 "    tok = gl.arange(0, BLOCK, layout=BL1)\n"
                                                 "    tok = gl.convert_layout(tok, gl.SliceLayout(1, BL2))\n"
                                                 "    x = gl.load(x_ptr + tok[:, None] * n)\n"));
  // A 1-D tensor used as 1-D, and a 2-D layout's arange (not judged).
  CHECK_FALSE(code::expand_of_an_unsliced_tensor(std::string(kHead) + "    c = gl.arange(0, BLOCK, layout=BL1)\n"
                                                                      "    x = gl.load(x_ptr + c)\n"));
  CHECK_FALSE(code::expand_of_an_unsliced_tensor("x = torch.arange(8)\ny = x[:, None]\n"));
}
