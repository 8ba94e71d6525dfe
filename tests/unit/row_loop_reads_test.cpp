// A claim that an operand is loaded once for many rows, checked against the
// kernel's loop over rows (code::pointer_read_in_row_loop,
// distill::OperandReuseRule; issue 25, round 19, H20).
#include <catch2/catch.hpp>

#include "code/row_loop_reads.hpp"
#include "config/config.hpp"
#include "distill/operand_reuse.hpp"
#include "error/error.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

// Two rows per program, the weight loaded in the row loop or before it.
std::string triton_rows(bool hoisted) {
  std::string load_w = "tl.load(w_ptr + cols, mask=mask, other=0.0)";
  return std::string(R"(import triton
import triton.language as tl


@triton.jit
def _rmsnorm(x_ptr, w_ptr, y_ptr, M, N, ROWS_PER_PROG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
)") + (hoisted ? "    w = " + load_w + "\n" : "") +
         R"(    for r in tl.static_range(ROWS_PER_PROG):
        row = pid * ROWS_PER_PROG + r
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0)
)" + (hoisted ? "" : "        w = " + load_w + "\n") +
         R"(        y = x * tl.rsqrt(tl.sum(x * x, axis=0) / N) * w
        tl.store(y_ptr + row * N + cols, y, mask=mask)
)";
}

std::string cuda_rows(bool staged) {
  std::string body =
      staged ? R"(  __shared__ float s_w[4096];
  for (int c = threadIdx.x; c < N; c += blockDim.x) s_w[c] = __bfloat162float(w[c]);
  __syncthreads();
  for (int row = blockIdx.x * ROWS_PER_BLOCK; row < (blockIdx.x + 1) * ROWS_PER_BLOCK; ++row) {
    for (int c = threadIdx.x; c < N; c += blockDim.x) y[row * N + c] = x[row * N + c] * s_w[c];
  }
)"
             : R"(  for (int row = blockIdx.x * ROWS_PER_BLOCK; row < (blockIdx.x + 1) * ROWS_PER_BLOCK; ++row) {
    for (int c = threadIdx.x; c < N; c += blockDim.x) {
      float g = __bfloat162float(w[c]);
      y[row * N + c] = x[row * N + c] * g;
    }
  }
)";
  return R"(import torch
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r'''
#include <cuda_bf16.h>
#define ROWS_PER_BLOCK 2

__global__ void rmsnorm_kernel(const float* __restrict__ x, const __nv_bfloat16* __restrict__ w, float* y, int N) {
)" + body +
         R"(}
'''
)";
}

} // namespace

TEST_CASE("a pointer read inside the loop over rows", "[issue25][operand-reuse]") {
  auto in_loop = code::pointer_read_in_row_loop(triton_rows(false), {"w", "w_ptr"});
  REQUIRE(in_loop);
  CHECK(in_loop->name == "w_ptr");
  CHECK(in_loop->code == "w = tl.load(w_ptr + cols, mask=mask, other=0.0)");
  CHECK(in_loop->line == 12);
  CHECK_FALSE(code::pointer_read_in_row_loop(triton_rows(true), {"w", "w_ptr"}));
  // Another operand's pointer, or no pointer to look for: nothing.
  CHECK_FALSE(code::pointer_read_in_row_loop(triton_rows(false), {"b_ptr"}));
  CHECK_FALSE(code::pointer_read_in_row_loop(triton_rows(false), {}));

  auto cuda = code::pointer_read_in_row_loop(cuda_rows(false), {"w", "w_ptr"});
  REQUIRE(cuda);
  CHECK(cuda->name == "w");
  CHECK(cuda->code == "float g = __bfloat162float(w[c]);");
  // Staged in shared memory before the row loop: the loop reads `s_w`.
  CHECK_FALSE(code::pointer_read_in_row_loop(cuda_rows(true), {"w"}));
  // A loop that is not over rows (the column loop alone) is not one.
  std::string columns_only = cuda_rows(false);
  const std::string head =
      "for (int row = blockIdx.x * ROWS_PER_BLOCK; row < (blockIdx.x + 1) * ROWS_PER_BLOCK; ++row)";
  REQUIRE(columns_only.find(head) != std::string::npos);
  columns_only.replace(columns_only.find(head), head.size(), "for (int k = 0; k < 2; ++k)");
  CHECK_FALSE(code::pointer_read_in_row_loop(columns_only, {"w"}));
  // No device function: nothing is decided.
  CHECK_FALSE(code::pointer_read_in_row_loop(std::string("x = 1\n"), {"w"}));
}

TEST_CASE("a reuse cause is contradicted by a load in the row loop", "[issue25][operand-reuse]") {
  const auto shipped =
      distill::OperandReuseRule::from_json(config::Config::defaults().data().get("operand_reuse"), "shipped");
  auto why = shipped.contradiction("reuses the weight vector across rows", cuda_rows(false));
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("reads `w` inside its loop over rows") &&
                       Catch::Contains("\"reuses the weight vector across rows\""));
  CHECK(shipped.contradiction("two rows per program share the gamma load across both rows", triton_rows(false)));
  // The code does what it says: no contradiction.
  CHECK_FALSE(shipped.contradiction("reuses the weight vector across rows", cuda_rows(true)));
  CHECK_FALSE(shipped.contradiction("the weight is loaded once per program", triton_rows(true)));
  // Reuse through a cache is what a per-row load gets.
  CHECK_FALSE(shipped.contradiction("rows reuse the weight vector across rows through L2", cuda_rows(false)));
  // A cause that claims no reuse is not read.
  CHECK_FALSE(shipped.contradiction("two rows per program halve the launch count", cuda_rows(false)));
}

TEST_CASE("the operand_reuse section is checked when read", "[issue25][operand-reuse][config]") {
  CHECK_THROWS_AS(distill::OperandReuseRule::from_json(json::parse(R"({"operands": {}})"), "t"), Error);
  CHECK_THROWS_AS(distill::OperandReuseRule::from_json(
                      json::parse(R"({"operands": [{"words": ["weight"], "pointers": ["w+1"]}]})"), "t"),
                  Error);
  CHECK_THROWS_AS(distill::OperandReuseRule::from_json(json::parse(R"({"operands": [{"words": ["weight"]}]})"), "t"),
                  Error);
  CHECK_NOTHROW(distill::OperandReuseRule::from_json(json::Value(), "t"));
}
