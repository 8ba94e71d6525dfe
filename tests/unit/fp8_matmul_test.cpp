// A Triton or Gluon dot on FP8 operands (code/fp8_matmul.hpp), and where
// the configuration says it cannot compile.
#include <catch2/catch.hpp>

#include <string>

#include "code/fp8_matmul.hpp"
#include "config/config.hpp"

using namespace otm;

namespace {

std::string gemm(const std::string &load_b) {
  return "import torch\n"
         "import triton\n"
         "import triton.language as tl\n"
         "@triton.jit\n"
         "def k(a_ptr, b_ptr, c_ptr):\n"
         "    a = tl.load(a_ptr)\n" +
         load_b +
         "    acc = tl.dot(a, b)\n"
         "    tl.store(c_ptr, acc)\n"
         "def run(a, b, c):\n"
         "    assert a.dtype == torch.float8_e4m3fn\n"
         "    k[(1,)](a, b, c)\n";
}

} // namespace

TEST_CASE("fp8 matmul: a dot on operands loaded as stored, in a file of FP8 tensors", "[code][issue25]") {
  auto d = code::fp8_dot(gemm("    b = tl.load(b_ptr)\n"));
  REQUIRE(d);
  CHECK(*d == "tl.dot(a, b)");
  // Converted on load: a bf16 dot.
  CHECK_FALSE(code::fp8_dot(gemm("    b = tl.load(b_ptr).to(tl.bfloat16)\n")));
  // Bound otherwise after the load: not judged.
  CHECK_FALSE(code::fp8_dot(gemm("    b = tl.load(b_ptr)\n    b = b * 2\n")));
  // No FP8 anywhere: a plain dot.
  std::string plain = gemm("    b = tl.load(b_ptr)\n");
  plain.replace(plain.find("torch.float8_e4m3fn"), std::string("torch.float8_e4m3fn").size(), "torch.bfloat16");
  CHECK_FALSE(code::fp8_dot(plain));
}

TEST_CASE("fp8 matmul: the products without FP8 matrix units are data", "[config][issue25]") {
  const auto without = config::Config::defaults().products_without_fp8_matmul();
  CHECK(without.count("a100"));
  CHECK_FALSE(without.count("h100"));
  CHECK_FALSE(without.count("mi300x"));
}
