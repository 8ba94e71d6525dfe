// The running sums of a kernel and their precision (code::running_sums),
// and a cause saying the sums are kept in bf16 checked against them
// (distill::LowPrecisionSumRule; issue 25, kit 28 Q13, kit 29 R14/R19).
#include <catch2/catch.hpp>

#include "code/accumulators.hpp"
#include "config/config.hpp"
#include "distill/low_precision_sum_claim.hpp"
#include "error/error.hpp"
#include "json/parse.hpp"

using namespace otm;
using Precision = code::RunningSum::Precision;

namespace {

std::string triton_rmsnorm(const std::string &init, const std::string &cast) {
  return "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
         "def _rmsnorm(x_ptr, y_ptr, N, BLOCK_N: tl.constexpr):\n"
         "    row = tl.program_id(0)\n"
         "    sq = " +
         init +
         "\n"
         "    for n0 in range(0, N, BLOCK_N):\n"
         "        cols = n0 + tl.arange(0, BLOCK_N)\n"
         "        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0).to(" +
         cast +
         ")\n"
         "        sq += x * x  # the sum of squares\n"
         "    rstd = 1.0 / tl.sqrt(tl.sum(sq, axis=0) / N)\n";
}

std::string cuda_sum(const std::string &decl, const std::string &update) {
  return "CUDA_SRC = r'''\n__global__ void k(const __nv_bfloat16* x, float* y, int N) {\n  " + decl +
         "\n  for (int i = threadIdx.x; i < N; i += blockDim.x) {\n    " + update + "\n  }\n  y[0] = acc;\n}\n'''\n";
}

} // namespace

TEST_CASE("the running sums of a kernel and their precision", "[issue25][accumulators]") {
  auto fp32 = code::running_sums(triton_rmsnorm("tl.zeros([BLOCK_N], dtype=tl.float32)", "tl.bfloat16"));
  REQUIRE(fp32.size() == 1);
  CHECK(fp32[0].name == "sq");
  CHECK(fp32[0].precision == Precision::Fp32);
  CHECK(fp32[0].line == 11);
  CHECK(code::running_sums(triton_rmsnorm("tl.zeros([BLOCK_N], dtype=tl.bfloat16)", "tl.bfloat16"))[0].precision ==
        Precision::Low);
  CHECK(code::running_sums(triton_rmsnorm("0.0", "tl.float32"))[0].precision == Precision::Fp32);
  CHECK(code::running_sums(triton_rmsnorm("make_acc()", "tl.float32"))[0].precision == Precision::Unknown);
  // An online rescaled sum reads itself beside a `+`.
  const std::string online = "@triton.jit\ndef k(x_ptr, V, B: tl.constexpr):\n    m = float('-inf')\n    s = 0.0\n"
                             "    for v0 in range(0, V, B):\n        x = tl.load(x_ptr + v0 + tl.arange(0, B))\n"
                             "        m_new = tl.maximum(m, tl.max(x, axis=0))\n"
                             "        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)\n"
                             "        m = m_new\n";
  auto sums = code::running_sums(online);
  REQUIRE(sums.size() == 1);
  CHECK(sums[0].name == "s");
  CHECK(sums[0].precision == Precision::Fp32);
  // CUDA: the declared type, a half-precision add, integer counters left out.
  auto f = code::running_sums(cuda_sum("float acc = 0.f;", "acc += __bfloat162float(x[i]);"));
  REQUIRE(f.size() == 1);
  CHECK(f[0].name == "acc");
  CHECK(f[0].precision == Precision::Fp32);
  CHECK(code::running_sums(cuda_sum("__nv_bfloat16 acc = 0;", "acc += x[i];"))[0].precision == Precision::Low);
  CHECK(code::running_sums(cuda_sum("__nv_bfloat16 acc = 0;", "acc = __hadd(acc, x[i]);"))[0].precision ==
        Precision::Low);
  CHECK(code::running_sums(cuda_sum("int acc = 0;", "acc += 1;")).empty());
  CHECK(code::running_sums("x = 1\n").empty());
}

TEST_CASE("a cause of bf16 sums is contradicted by fp32 running sums", "[issue25][accumulators]") {
  const auto rule =
      distill::LowPrecisionSumRule::from_json(config::Config::defaults().data().get("low_precision_sums"), "shipped");
  const auto cast_only = triton_rmsnorm("tl.zeros([BLOCK_N], dtype=tl.float32)", "tl.bfloat16");
  auto why = rule.contradiction("accumulating 16k squares in bf16 loses low-order terms", cast_only);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("every running sum of the kernel stays fp32 (`sq`)"));
  CHECK(rule.contradiction("bf16 accumulation loses the small terms", cast_only));
  // The sum really in bf16, or of a precision the reader cannot tell: no.
  CHECK_FALSE(rule.contradiction("accumulating 16k squares in bf16 loses low-order terms",
                                 triton_rmsnorm("tl.zeros([BLOCK_N], dtype=tl.bfloat16)", "tl.bfloat16")));
  CHECK_FALSE(rule.contradiction("accumulating 16k squares in bf16 loses low-order terms",
                                 triton_rmsnorm("make_acc()", "tl.bfloat16")));
  CHECK_FALSE(rule.contradiction("summing in bf16 loses the small terms",
                                 cuda_sum("__nv_bfloat16 acc = 0;", "acc = __hadd(acc, x[i]);")));
  // A cause that claims no low-precision sum is not read.
  CHECK_FALSE(rule.contradiction("bf16 loads halve the traffic", cast_only));
  CHECK_THROWS_AS(distill::LowPrecisionSumRule::from_json(json::parse(R"({"claims": "x"})"), "t"), Error);
}
