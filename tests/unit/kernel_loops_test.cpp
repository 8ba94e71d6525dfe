#include <catch2/catch.hpp>

#include "code/kernel_loops.hpp"
#include "levers/lever_vocabulary.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("device code loops: a Triton row loop, a loop-free kernel, and a file with no kernel", "[loops]") {
  const char *loop_free = R"(import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    tl.store(x_ptr + cols, tl.load(x_ptr + cols) * 2)


def launch(x):
    for _ in range(3):  # the host's loop is no kernel's
        k[(1,)](x, BLOCK=128, num_stages=4)
)";
  CHECK(code::device_code_loops(loop_free) == std::optional<bool>(false));

  const char *row_loop = R"(import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n_rows, BLOCK: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=2):
        cols = tl.arange(0, BLOCK)
        tl.store(x_ptr + row * BLOCK + cols, tl.load(x_ptr + row * BLOCK + cols) * 2)
)";
  CHECK(code::device_code_loops(row_loop) == std::optional<bool>(true));

  // A helper device function's loop counts (generous).
  const char *gluon_helper = R"(from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def _sum(x, N: gl.constexpr):
    acc = 0.0
    for i in gl.static_range(N):
        acc += x
    return acc
)";
  CHECK(code::device_code_loops(gluon_helper) == std::optional<bool>(true));

  const char *cuda = R"(from torch.utils.cpp_extension import load_inline
SRC = r"""
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
"""
)";
  CHECK(code::device_code_loops(cuda) == std::optional<bool>(false));
  const char *cuda_loop = R"(SRC = r"""
__global__ void scale(float* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] *= 2.0f;
}
"""
)";
  CHECK(code::device_code_loops(cuda_loop) == std::optional<bool>(true));

  CHECK_FALSE(code::device_code_loops("import torch\n\ndef f(x):\n    return x * 2\n").has_value());
}

TEST_CASE("lever vocabulary: which levers act on a loop is data", "[loops][levers]") {
  const auto &v = levers::LeverVocabulary::defaults();
  CHECK(v.acts_on_a_loop("pipeline-stages"));
  CHECK(v.acts_on_a_loop("loop-unrolling"));
  CHECK_FALSE(v.acts_on_a_loop("num-warps-tuning"));
  auto custom = levers::LeverVocabulary::from_json(
      json::parse(R"({"my-lever": {"prose": ["my lever"], "acts_on_a_loop": true}})"), "test");
  CHECK(custom.acts_on_a_loop("my-lever"));
  CHECK(v.on_or_off("persistent-kernel"));
  CHECK_FALSE(v.on_or_off("block-size-tuning"));
  CHECK_THROWS(levers::LeverVocabulary::from_json(
      json::parse(R"({"my-lever": {"prose": ["my lever"], "on_or_off": 1}})"), "test"));
  CHECK_THROWS(levers::LeverVocabulary::from_json(
      json::parse(R"({"my-lever": {"prose": ["my lever"], "acts_on_a_loop": "yes"}})"), "test"));
}

TEST_CASE("compiler option: where Triton and Gluon leave num_stages unused is data", "[loops][levers]") {
  const auto &v = levers::LeverVocabulary::defaults();
  const auto *option = v.compiler_option("pipeline-stages");
  REQUIRE(option);
  CHECK(option->name() == "num_stages");
  CHECK_FALSE(v.compiler_option("num-warps-tuning"));

  const char *no_dot = R"(import triton
import triton.language as tl


@triton.jit
def k(x_ptr, N, BLOCK: tl.constexpr):
    """Sums a row; tl.dot is not needed here."""  # nor here: tl.dot(a, b)
    acc = tl.zeros([BLOCK], tl.float32)
    for off in range(0, N, BLOCK):
        acc += tl.load(x_ptr + off + tl.arange(0, BLOCK))
    tl.store(x_ptr + tl.arange(0, BLOCK), acc)


def launch(x):
    k[(1,)](x, x.shape[0], BLOCK=128, num_stages=4)
)";
  auto device = code::device_code(no_dot);
  REQUIRE(device);
  CHECK(device->find("def k") == std::string::npos);  // the body, not the header
  CHECK(device->find("tl.dot") == std::string::npos); // docstrings and comments are not code
  CHECK(device->find("launch") == std::string::npos); // host code is not device code
  auto why = option->unused_because("triton", *device);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("`tl.dot`"));
  // A loop feeding tl.dot, or one written tl.range(..., num_stages=K), is pipelined.
  CHECK_FALSE(option->unused_because("triton", "    for k in range(0, K, BK):\n        acc = tl.dot(a, b, acc)\n"));
  CHECK_FALSE(option->unused_because("triton", "    for i in tl.range(0, n, 1, num_stages=3):\n        s += 1\n"));
  // Bounds that are calls themselves (kit 51, X09).
  CHECK_FALSE(option->unused_because(
      "triton", "    for k0 in tl.range(pid_k * kps, (pid_k + 1) * kps, BLOCK_K, num_stages=3):\n        s += 1\n"));
  CHECK_FALSE(
      option->unused_because("triton", "    for i in tl.range(0, tl.cdiv(K, BK), num_stages=3):\n        s += 1\n"));
  // Gluon never uses it; a DSL the option does not list always may.
  CHECK(option->unused_because("gluon", "    acc = gl.dot_fma(a, b, acc)\n"));
  CHECK_FALSE(option->unused_because("cuda", ""));
  CHECK(option->said_unused("Gluon ignores num_stages"));
  CHECK(option->said_unused("num_stages is not used by the Gluon path"));
  CHECK_FALSE(option->said_unused("more stages cost shared memory and occupancy"));

  auto custom = levers::LeverVocabulary::from_json(json::parse(R"({"my-lever": {"prose": ["my lever"],
      "compiler_option": {"name": "my_opt", "acts_only_when": {"triton": ["tl\\.dot"]},
                          "unused_because": {"triton": "no dot"}, "said_unused": "ignored"}}})"),
                                                   "test");
  REQUIRE(custom.compiler_option("my-lever"));
  CHECK(custom.compiler_option("my-lever")->unused_because("triton", "x = 1") == std::optional<std::string>("no dot"));
  // A DSL without its reason, or a missing said_unused, is refused with where.
  CHECK_THROWS_WITH(levers::LeverVocabulary::from_json(json::parse(R"({"my-lever": {"prose": ["my lever"],
      "compiler_option": {"name": "my_opt", "acts_only_when": {"triton": []}, "unused_because": {},
                          "said_unused": "ignored"}}})"),
                                                       "test"),
                    Catch::Contains("unused_because.triton"));
  CHECK_THROWS(levers::LeverVocabulary::from_json(json::parse(R"({"my-lever": {"prose": ["my lever"],
      "compiler_option": {"name": "my_opt", "acts_only_when": {}, "unused_because": {}}}})"),
                                                  "test"));
}
