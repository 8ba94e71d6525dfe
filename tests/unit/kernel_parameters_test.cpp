// The parameters a JIT kernel's body never reads, and where the file names
// them for nothing (code/kernel_parameters.hpp).
#include <catch2/catch.hpp>

#include "code/kernel_parameters.hpp"

using namespace otm;

namespace {
const char *kFile = "import triton\n"
                    "import triton.language as tl\n"
                    "ROWS_PER_PROG = 4\n"
                    "@triton.jit\n"
                    "def _k(x_ptr, M,\n"
                    "       BLOCK: tl.constexpr, ROWS_PER_PROG: tl.constexpr):\n"
                    "    for row in range(tl.program_id(0), M, tl.num_programs(0)):\n"
                    "        tl.store(x_ptr + row * BLOCK + tl.arange(0, BLOCK), 0.0)\n"
                    "def run(x, M):\n"
                    "    _k[(M,)](x, M, BLOCK=1024,\n"
                    "             ROWS_PER_PROG=min(ROWS_PER_PROG, M), num_warps=4)\n";
} // namespace

TEST_CASE("kernel parameters: the ones the body never reads", "[code][issue25]") {
  auto kernels = code::jit_kernel_parameters(kFile);
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].name == "_k");
  CHECK(kernels[0].params == std::vector<std::string>{"x_ptr", "M", "BLOCK", "ROWS_PER_PROG"});
  CHECK(kernels[0].unread == std::set<std::string>{"ROWS_PER_PROG"});
  CHECK(kernels[0].signature_end == 6);
  // An autotune key names it: read by the decorator that re-tunes on it
  // (kit 49, V03: `max_seq_len` called dead).
  const std::string keyed = std::string(kFile).replace(std::string(kFile).find("@triton.jit"), 11,
                                                       "@triton.autotune(configs=[], key=['ROWS_PER_PROG'])\n"
                                                       "@triton.jit");
  auto tuned = code::jit_kernel_parameters(keyed);
  REQUIRE(tuned.size() == 1);
  CHECK(tuned[0].unread.empty());
}

TEST_CASE("kernel parameters: the signature's name and the launch keyword that pass an unread one", "[code][issue25]") {
  auto texts = code::unread_parameter_texts(kFile);
  REQUIRE(texts.size() == 2);
  CHECK(texts[0].line == 5);
  CHECK(texts[0].text == "ROWS_PER_PROG");
  CHECK(texts[1].line == 10);
  CHECK(texts[1].text == "ROWS_PER_PROG=min(ROWS_PER_PROG, M)");
  CHECK(texts[1].reads == std::vector<std::string>{"ROWS_PER_PROG", "min", "ROWS_PER_PROG", "M"});
}
