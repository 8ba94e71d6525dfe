// A claim that an operand is loaded once for many rows (heads), checked
// against the kernel's loop over them (code::pointer_read_in_axis_loop,
// distill::OperandReuseRule; issue 25, round 19, H20; kit 27, P11).
#include <catch2/catch.hpp>

#include "code/axis_loop_reads.hpp"
#include "code/shared_array_bounds.hpp"
#include "config/config.hpp"
#include "distill/operand_reuse.hpp"
#include "error/error.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

const text::Regex rows(R"((?i)\b\w*(?:row|tok)\w*\b)");

std::optional<code::AxisLoopRead> in_row_loop(const std::string &source, const std::vector<std::string> &pointers) {
  return code::pointer_read_in_axis_loop(source, pointers, rows);
}

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

// One program's heads of one token block, the cos/sin rows loaded in the
// head loop or before it (kit 27, P11's trace).
std::string triton_heads(bool hoisted) {
  const std::string loads = "c = tl.load(cos_ptr + pos[:, None] * HALF + d[None, :])\n"
                            "s_ = tl.load(sin_ptr + pos[:, None] * HALF + d[None, :])\n";
  auto indented = [](const std::string &text, const std::string &pad) {
    std::string out;
    for (std::size_t at = 0; at < text.size();) {
      auto eol = text.find('\n', at);
      out += pad + text.substr(at, eol + 1 - at);
      at = eol + 1;
    }
    return out;
  };
  return std::string(R"(import triton
import triton.language as tl


@triton.jit
def _rope(q_ptr, cos_ptr, sin_ptr, pos_ptr, n_heads, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    pid_h = tl.program_id(1)
    pos = tl.load(pos_ptr + tl.program_id(0))
    d = tl.arange(0, HALF)
)") + (hoisted ? indented(loads, "    ") : "") +
         R"(    # q and k heads share cos/sin in registers
    for h0 in range(pid_h * BLOCK_H, pid_h * BLOCK_H + BLOCK_H):
        x1 = tl.load(q_ptr + h0 * 2 * HALF + d)
        x2 = tl.load(q_ptr + h0 * 2 * HALF + HALF + d)
)" + (hoisted ? "" : indented(loads, "        ")) +
         R"(        tl.store(q_ptr + h0 * 2 * HALF + d, x1 * c - x2 * s_)
)";
}

} // namespace

TEST_CASE("a pointer read inside the loop over rows", "[issue25][operand-reuse]") {
  auto in_loop = in_row_loop(triton_rows(false), {"w", "w_ptr"});
  REQUIRE(in_loop);
  CHECK(in_loop->name == "w_ptr");
  CHECK(in_loop->code == "w = tl.load(w_ptr + cols, mask=mask, other=0.0)");
  CHECK(in_loop->line == 12);
  CHECK_FALSE(in_row_loop(triton_rows(true), {"w", "w_ptr"}));
  // Another operand's pointer, or no pointer to look for: nothing.
  CHECK_FALSE(in_row_loop(triton_rows(false), {"b_ptr"}));
  CHECK_FALSE(in_row_loop(triton_rows(false), {}));

  auto cuda = in_row_loop(cuda_rows(false), {"w", "w_ptr"});
  REQUIRE(cuda);
  CHECK(cuda->name == "w");
  CHECK(cuda->code == "float g = __bfloat162float(w[c]);");
  // Staged in shared memory before the row loop: the loop reads `s_w`.
  CHECK_FALSE(in_row_loop(cuda_rows(true), {"w"}));
  // A loop that is not over rows (the column loop alone) is not one.
  std::string columns_only = cuda_rows(false);
  const std::string head =
      "for (int row = blockIdx.x * ROWS_PER_BLOCK; row < (blockIdx.x + 1) * ROWS_PER_BLOCK; ++row)";
  REQUIRE(columns_only.find(head) != std::string::npos);
  columns_only.replace(columns_only.find(head), head.size(), "for (int k = 0; k < 2; ++k)");
  CHECK_FALSE(in_row_loop(columns_only, {"w"}));
  // No device function: nothing is decided.
  CHECK_FALSE(in_row_loop(std::string("x = 1\n"), {"w"}));
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

TEST_CASE("a reuse across heads is contradicted by a load in the head loop", "[issue25][operand-reuse]") {
  const text::Regex heads(R"(\b(?:\w*[Hh]ead\w*|h\d*|\w*_[hH]|BLOCK_H\w*)\b)");
  auto read = code::pointer_read_in_axis_loop(triton_heads(false), {"cos_ptr", "sin_ptr"}, heads);
  REQUIRE(read);
  CHECK(read->name == "cos_ptr");
  CHECK_FALSE(code::pointer_read_in_axis_loop(triton_heads(true), {"cos_ptr", "sin_ptr"}, heads));
  // The head loop is no loop over rows.
  CHECK_FALSE(in_row_loop(triton_heads(false), {"cos_ptr"}));

  const auto shipped =
      distill::OperandReuseRule::from_json(config::Config::defaults().data().get("operand_reuse"), "shipped");
  auto why =
      shipped.contradiction("the cos/sin row is reused across several heads held by one program", triton_heads(false));
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("inside its loop over heads") && Catch::Contains("`cos_ptr`"));
  // A claim naming no axis is read against every axis (kit 26, N11).
  CHECK(shipped.contradiction("q and k share one launch and one cos/sin fetch", triton_heads(false)));
  CHECK_FALSE(shipped.contradiction("q and k share one launch and one cos/sin fetch", triton_heads(true)));
  CHECK_FALSE(shipped.contradiction("the cos/sin row is reused across several heads", triton_heads(true)));
  // A reuse of another operand says nothing of cos/sin.
  CHECK_FALSE(shipped.contradiction("the weight vector is reused across heads", triton_heads(false)));
}

TEST_CASE("a cause holding an operand in registers, on a kernel that stages it in shared memory",
          "[issue25][operand-reuse]") {
  // Kit 30 S08, kit 32 U02: "several rows per program reuse the bias
  // registers" on a kernel that fills `s_bias` once per block.
  auto kernel = [](bool shared) {
    return std::string("_src = r\"\"\"\n__global__ void k(const float* x, const float* bias, float* y, int n) {\n") +
           (shared ? "  __shared__ float s_bias[256];\n  for (int i = threadIdx.x; i < 256; i += blockDim.x)\n"
                     "    s_bias[i] = __ldg(bias + i);\n  __syncthreads();\n"
                     "  for (int r = 0; r < 4; ++r) y[r * n + threadIdx.x] = x[r * n + threadIdx.x] + "
                     "s_bias[threadIdx.x];\n"
                   : "  const float b = __ldg(bias + threadIdx.x);\n"
                     "  for (int r = 0; r < 4; ++r) y[r * n + threadIdx.x] = x[r * n + threadIdx.x] + b;\n") +
           "}\n\"\"\"\n";
  };
  auto staged = code::shared_stagings(kernel(true), code::Language::Python, {"b", "bias"});
  REQUIRE(staged.size() == 1);
  CHECK(staged[0].array == "s_bias");
  CHECK(staged[0].pointer == "bias");
  CHECK(code::shared_stagings(kernel(false), code::Language::Python, {"bias"}).empty());
  const auto shipped =
      distill::OperandReuseRule::from_json(config::Config::defaults().data().get("operand_reuse"), "shipped");
  const std::string cause = "several rows per program reuse the bias registers and cut program count";
  auto why = shipped.contradiction(cause, kernel(true));
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("stages `bias` in the shared array `s_bias`"));
  // The bias in a register: the cause stands.
  CHECK_FALSE(shipped.contradiction(cause, kernel(false)));
  // A sentence about registers that names no operand staged there.
  CHECK_FALSE(shipped.contradiction("fewer registers per thread raise occupancy", kernel(true)));
}

TEST_CASE("the operand_reuse section is checked when read", "[issue25][operand-reuse][config]") {
  CHECK_THROWS_AS(distill::OperandReuseRule::from_json(json::parse(R"({"operands": {}})"), "t"), Error);
  CHECK_THROWS_AS(distill::OperandReuseRule::from_json(
                      json::parse(R"({"operands": [{"words": ["weight"], "pointers": ["w+1"]}]})"), "t"),
                  Error);
  CHECK_THROWS_AS(distill::OperandReuseRule::from_json(json::parse(R"({"operands": [{"words": ["weight"]}]})"), "t"),
                  Error);
  CHECK_THROWS_AS(
      distill::OperandReuseRule::from_json(json::parse(R"({"axes": [{"name": "rows", "words": ["rows"]}]})"), "t"),
      Error);
  CHECK_THROWS_AS(distill::OperandReuseRule::from_json(
                      json::parse(R"({"axes": [{"name": "rows", "words": ["rows"], "loop": "(unclosed"}]})"), "t"),
                  Error);
  CHECK_THROWS_AS(
      distill::OperandReuseRule::from_json(json::parse(R"({"axes": [{"words": ["rows"], "loop": "row"}]})"), "t"),
      Error);
  CHECK_NOTHROW(distill::OperandReuseRule::from_json(json::Value(), "t"));
}
