#include <catch2/catch.hpp>

#include "code/unmasked_accesses.hpp"

using namespace otm;

namespace {

std::vector<std::string> found(const std::string &source) {
  std::vector<std::string> out;
  for (const auto &a : code::unmasked_block_accesses(source)) out.push_back(std::to_string(a.line) + ":" + a.call);
  return out;
}

} // namespace

TEST_CASE("loads and stores of a block of offsets without a mask", "[code][issue25]") {
  // Kit 50, W02: `cols = tl.arange(0, BLOCK_N)` read and written without a
  // mask; the scalar loads of the row's statistics need none.
  const std::string kernel = "@triton.jit\n"
                             "def k(DX, X, Mean, stride, N, BLOCK_N: tl.constexpr):\n"
                             "    row = tl.program_id(0)\n"
                             "    cols = tl.arange(0, BLOCK_N)\n"
                             "    offs = row * stride + cols\n"
                             "    mean = tl.load(Mean + row)\n"
                             "    x = tl.load(X + offs,\n"
                             "                eviction_policy=\"evict_first\")  # no mask: tiles divide N\n"
                             "    w = tl.load(X + cols, mask=cols < N, other=0.0)\n"
                             "    tl.store(DX + offs, x - mean)\n";
  CHECK(found(kernel) == std::vector<std::string>{"6:tl.load", "9:tl.store"});
  // Each names the block sizes of its function's offsets (kit 53, Z12).
  for (const auto &a : code::unmasked_block_accesses(kernel)) CHECK(a.blocks == std::vector<std::string>{"BLOCK_N"});
  // A branch on evenness is the caller's to decide; block pointers and
  // boundary checks are not masks to ask for.
  CHECK(found("def k(X, N, EVEN_N: tl.constexpr, B: tl.constexpr):\n"
              "    cols = tl.arange(0, B)\n"
              "    if EVEN_N:\n"
              "        x = tl.load(X + cols)\n"
              "    else:\n"
              "        x = tl.load(X + cols, mask=cols < N)\n")
            .empty());
  CHECK(found("def k(p, B: tl.constexpr):\n"
              "    ptr = tl.make_block_ptr(p, (8, 8), (8, 1), (0, 0), (B, B), (1, 0))\n"
              "    x = tl.load(ptr, boundary_check=(0, 1))\n")
            .empty());
  // Kit 52, Y02: a value loaded from a block and reduced is no offset, and
  // the host's `x` is not the kernel's.
  CHECK(found("def k(X, Part, row, B: tl.constexpr):\n"
              "    cols = tl.arange(0, B)\n"
              "    x = tl.load(X + cols, mask=cols < 8)\n"
              "    m = tl.max(x, 0)\n"
              "    tl.store(Part + row, m)\n"
              "\n"
              "def host(x):\n"
              "    n = x.shape[0]\n"
              "    k[(1,)](x, x, n, B=8)\n")
            .empty());
  // Gluon's calls too.
  CHECK(found("def k(X, B: gl.constexpr):\n"
              "    offs = gl.arange(0, B, layout=L)\n"
              "    x = gl.load(X + offs)\n") == std::vector<std::string>{"2:gl.load"});
  const auto gluon = code::unmasked_block_accesses("def k(X, B: gl.constexpr):\n"
                                                   "    offs = gl.arange(0, B, layout=L)\n"
                                                   "    x = gl.load(X + offs)\n");
  REQUIRE(gluon.size() == 1);
  CHECK(gluon[0].blocks == std::vector<std::string>{"B"});
}
