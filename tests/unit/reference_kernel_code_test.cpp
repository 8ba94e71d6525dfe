// Issue 25: a reference kernel runs as quoted. Its snippet and
// dispatch_snippet together hold everything the kernel needs: the imports
// the quoted code uses, the module constants it reads (multi-line ones too),
// every decorator of the kernel (a multi-line @triton.autotune too), the
// helper functions the kernel and its launcher call, and the launcher; for
// CUDA in load_inline strings, the #defines and __device__ helpers, the host
// function, the load_inline call and the Python that launches it. Nothing
// else: a bench harness, an unused function or a module-level test run is
// not quoted. Judged by an independent checker (quoted_code_check.hpp) on
// hand-written kernels, on every kernel file of the bundled example trace
// and on kernels the trace generator renders in all three DSLs.
#include <catch2/catch.hpp>

#include <filesystem>

#include "config/config.hpp"
#include "distill/drafter.hpp"
#include "distill/reference_kernel_code.hpp"
#include "distill_test_support.hpp"
#include "io/file.hpp"
#include "quoted_code_check.hpp"
#include "test_paths.hpp"
#include "tracegen/kernel_source.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

struct Quoted {
  std::string name, snippet, dispatch;
  std::vector<std::string> problems;
  std::string all() const { return dispatch + "\n" + snippet; }
};

distill::Draft draft(const std::string &code, const distill::DraftRules &rules = distill::DraftRules::defaults()) {
  auto p = distill::load_packet(testsupport::distill_fixtures() / "refk-final.json");
  p.code = code;
  return distill::draft_record(p, rules);
}

// The selection a file too long to quote whole gets (the drafter quotes a
// file within limits.max_reference_kernel_lines whole).
Quoted quote_of(const std::string &code) {
  auto r = distill::reference_kernel_code(code);
  REQUIRE(r);
  Quoted q{r->name, r->snippet, r->dispatch, {}};
  q.problems = testsupport::check_quoted_code(code, q.name, q.snippet, q.dispatch).problems;
  return q;
}

const char *kTritonAutotune = R"PY("""Row max-normalise with a tree reduction."""
import math

import torch
import triton
import triton.language as tl

from triton.testing import do_bench

# Candidate configurations the autotuner tries.
CONFIGS = [
    triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
    triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
]
EPS = tl.constexpr(1e-6)
_WARMUP = 25


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _scale(x, m):
    return x / (m + EPS)


@triton.autotune(
    configs=CONFIGS,
    key=["n_cols"],
)
@triton.jit
def rowmax_norm_kernel(x_ptr, y_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0)
    m = tl.reduce(tl.abs(x), 0, _max_combine)
    tl.store(y_ptr + row * n_cols + offs, _scale(x, m), mask=mask)


def _reference(x):
    return x / x.abs().amax(dim=1, keepdim=True)


def rowmax_norm(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = (n_rows,)
    rowmax_norm_kernel[grid](x, y, n_cols)
    return y


def _bench(n_rows=4096, n_cols=2048):
    x = torch.randn(n_rows, n_cols, device="cuda")
    ms = do_bench(lambda: rowmax_norm(x), warmup=_WARMUP)
    print(f"{n_rows}x{n_cols}: {ms:.3f} ms, {math.log2(n_cols)} bits")


if __name__ == "__main__":
    _bench()
)PY";

const char *kGluonPersistent = R"PY(import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

N_COLS = 4096
NUM_WARPS = 8
ROW_LAYOUT: gl.constexpr = gl.BlockedLayout([8], [32], [NUM_WARPS], [0])
SMEM_LAYOUT: gl.constexpr = gl.SwizzledSharedLayout(
    8, 1, 4, order=[0]
)
NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count


@gluon.jit
def _row_max(x):
    return gl.max(x, axis=0)


@gluon.jit
def softmax_persistent_kernel(x_ptr, y_ptr, n_rows, stride, BLOCK_N: gl.constexpr):
    cols = gl.arange(0, BLOCK_N, layout=ROW_LAYOUT)
    scratch = gl.allocate_shared_memory(gl.float32, [BLOCK_N], SMEM_LAYOUT)
    for row in range(gl.program_id(0), n_rows, gl.num_programs(0)):
        x = gl.load(x_ptr + row * stride + cols).to(gl.float32)
        scratch.store(x)
        m = _row_max(x)
        e = gl.exp(x - m)
        gl.store(y_ptr + row * stride + cols, e / gl.sum(e, axis=0))


@gluon.jit
def _loader_partition(x_ptr, BLOCK_N: gl.constexpr):
    # producer warp: streams rows ahead of the compute warps
    pass


def _grid(n_rows):
    return (min(n_rows, NUM_SMS),)


def softmax(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_persistent_kernel[_grid(n_rows)](x, y, n_rows, x.stride(0),
                                             BLOCK_N=N_COLS, num_warps=NUM_WARPS)
    return y


def _check():
    x = torch.randn(512, N_COLS, device="cuda")
    torch.testing.assert_close(softmax(x), torch.softmax(x, dim=1))
)PY";

const char *kCudaInline = R"PY("""RMSNorm in CUDA C++ through load_inline."""
import torch
from torch.utils.cpp_extension import load_inline

_WARMUP = 10

cuda_src = r"""
#include <cuda_runtime.h>
#include <torch/extension.h>

#define THREADS 256
#define N_COLS 4096
#define UNUSED_TILE 64

// 128-bit read-only loads: one instruction per four floats
__device__ __forceinline__ float4 load_v4(const float* p) {
    float4 v;
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}

__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

__device__ float unused_helper(float v) {
    return v * UNUSED_TILE;
}

__device__ float block_sum(float v, float* partial) {
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < THREADS / 32; ++w) partial[0] += partial[w];
    }
    __syncthreads();
    return partial[0];
}

__global__ void __launch_bounds__(THREADS) rms_kernel(const float* __restrict__ x, float* __restrict__ y, int n_rows, float eps) {
    __shared__ float partial[THREADS / 32];
    const int row = blockIdx.x;
    const float* xr = x + (size_t)row * N_COLS;
    float acc = 0.f;
    for (int i = threadIdx.x * 4; i < N_COLS; i += THREADS * 4) {
        const float4 v = load_v4(xr + i);
        acc += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    acc = block_sum(acc, partial);
    const float r = rsqrtf(acc / N_COLS + eps);
    for (int i = threadIdx.x; i < N_COLS; i += THREADS) {
        y[(size_t)row * N_COLS + i] = xr[i] * r;
    }
}

torch::Tensor rms(torch::Tensor x, double eps) {
    auto y = torch::empty_like(x);
    const int n_rows = x.size(0);
    rms_kernel<<<n_rows, THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), n_rows, (float)eps);
    return y;
}
"""

cpp_src = "torch::Tensor rms(torch::Tensor x, double eps);"

_ext = load_inline(name="rms_ext", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=["rms"])


def rms(x: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return _ext.rms(x.contiguous(), eps)


def _bench():
    x = torch.randn(4096, 4096, device="cuda")
    for _ in range(_WARMUP):
        rms(x)
)PY";

// A kernel file full of things the kernel does not need: a harness run at
// module level (its `x` and `y` shadow the kernel's locals by name), an
// unused jit function, a benchmark class, a decorated bench function, bench
// settings, a torch reference and a main guard.
const char *kCrowded = R"PY(import os
import time

import torch
import triton
import triton.language as tl

BENCH_SHAPES = {
    "small": (128, 1024),
    "large": (8192, 1024),
}
N_COLS = 1024
VERBOSE = os.environ.get("VERBOSE", "0") == "1"


@triton.jit
def _unused_square(x):
    return x * x


@triton.jit
def scale_kernel(x_ptr, y_ptr, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + offs)
    y = x * scale
    tl.store(y_ptr + row * BLOCK + offs, y)


def scale_rows(x, scale):
    y = torch.empty_like(x)
    scale_kernel[(x.shape[0],)](x, y, scale, BLOCK=N_COLS, num_warps=4)
    return y


def torch_reference(x, scale):
    return x * scale


class Benchmark:
    def __init__(self, shape):
        self.x = torch.randn(*shape, device="cuda")

    def run(self):
        start = time.perf_counter()
        scale_rows(self.x, 2.0)
        return time.perf_counter() - start


@torch.no_grad()
def bench_all():
    for name, shape in BENCH_SHAPES.items():
        t = Benchmark(shape).run()
        if VERBOSE:
            print(name, t)


x = torch.randn(4, N_COLS, device="cuda")
y = scale_rows(x, 0.5)
torch.testing.assert_close(y, torch_reference(x, 0.5))

if __name__ == "__main__":
    bench_all()
)PY";

} // namespace

TEST_CASE("a Triton reference kernel quotes its multi-line autotune, its helper jit functions and what they read",
          "[distill][reference]") {
  auto q = quote_of(kTritonAutotune);
  INFO("snippet:\n" << q.snippet << "\ndispatch:\n" << q.dispatch);
  CHECK(q.problems == std::vector<std::string>{});
  CHECK(q.name == "rowmax_norm_kernel");
  // The snippet is the kernel: its helpers and the whole decorated function.
  CHECK_THAT(q.snippet, Catch::StartsWith("@triton.jit\ndef _max_combine(a, b):"));
  CHECK_THAT(q.snippet, Catch::Contains("def _scale(x, m):") &&
                            Catch::Contains("@triton.autotune(\n    configs=CONFIGS,\n    key=[\"n_cols\"],\n)\n"
                                            "@triton.jit\ndef rowmax_norm_kernel(") &&
                            Catch::EndsWith("tl.store(y_ptr + row * n_cols + offs, _scale(x, m), mask=mask)"));
  // The dispatch: imports, constants (multi-line too) and the launcher.
  CHECK_THAT(q.dispatch, Catch::StartsWith("import torch\nimport triton\nimport triton.language as tl"));
  CHECK_THAT(q.dispatch, Catch::Contains("CONFIGS = [\n    triton.Config({\"BLOCK_SIZE\": 1024}, num_warps=4),\n"
                                         "    triton.Config({\"BLOCK_SIZE\": 2048}, num_warps=8),\n]") &&
                             Catch::Contains("EPS = tl.constexpr(1e-6)") &&
                             Catch::EndsWith("    rowmax_norm_kernel[grid](x, y, n_cols)\n    return y"));
  for (const char *absent : {"math", "do_bench", "_WARMUP", "_reference", "_bench", "__name__"})
    CHECK_FALSE(testsupport::quotes_name(q.all(), absent));
}

TEST_CASE("a Gluon reference kernel quotes its layouts, its helpers and its persistent launcher",
          "[distill][reference]") {
  auto q = quote_of(kGluonPersistent);
  INFO("snippet:\n" << q.snippet << "\ndispatch:\n" << q.dispatch);
  CHECK(q.problems == std::vector<std::string>{});
  CHECK(q.name == "softmax_persistent_kernel");
  CHECK_THAT(q.snippet, Catch::StartsWith("@gluon.jit\ndef _row_max(x):") &&
                            Catch::Contains("@gluon.jit\ndef softmax_persistent_kernel("));
  CHECK_THAT(q.dispatch,
             Catch::Contains("SMEM_LAYOUT: gl.constexpr = gl.SwizzledSharedLayout(\n    8, 1, 4, order=[0]\n)") &&
                 Catch::Contains("ROW_LAYOUT: gl.constexpr") && Catch::Contains("NUM_WARPS = 8") &&
                 Catch::Contains("def _grid(n_rows):\n    return (min(n_rows, NUM_SMS),)") &&
                 Catch::Contains("from triton.experimental.gluon import language as gl"));
  for (const char *absent : {"_loader_partition", "_check"}) CHECK_FALSE(testsupport::quotes_name(q.all(), absent));
}

TEST_CASE("a CUDA reference kernel in a load_inline string quotes its device helpers, #defines, build and launch",
          "[distill][reference]") {
  auto q = quote_of(kCudaInline);
  INFO("snippet:\n" << q.snippet << "\ndispatch:\n" << q.dispatch);
  CHECK(q.problems == std::vector<std::string>{});
  CHECK(q.name == "rms_kernel");
  // The snippet is the device code: the macros and helpers the kernel uses.
  CHECK_THAT(q.snippet, Catch::StartsWith("#define THREADS 256\n#define N_COLS 4096") &&
                            Catch::Contains("__device__ __forceinline__ float4 load_v4(const float* p) {") &&
                            Catch::Contains("__device__ float warp_sum(float v) {") &&
                            Catch::Contains("__device__ float block_sum(float v, float* partial) {") &&
                            Catch::Contains("__global__ void __launch_bounds__(THREADS) rms_kernel(") &&
                            Catch::EndsWith("}"));
  // The dispatch: the Python that builds the source and launches it.
  CHECK_THAT(q.dispatch,
             Catch::StartsWith("import torch\nfrom torch.utils.cpp_extension import load_inline") &&
                 Catch::Contains("cuda_src = r\"\"\"\n#include <cuda_runtime.h>\n#include <torch/extension.h>") &&
                 Catch::Contains("torch::Tensor rms(torch::Tensor x, double eps) {") &&
                 Catch::Contains("\"\"\"\n\ncpp_src = ") && Catch::Contains("_ext = load_inline(") &&
                 Catch::EndsWith("    return _ext.rms(x.contiguous(), eps)"));
  for (const char *absent : {"UNUSED_TILE", "unused_helper", "_WARMUP", "_bench"})
    CHECK_FALSE(testsupport::quotes_name(q.all(), absent));
}

TEST_CASE("a reference kernel quotes nothing its kernel and launcher do not need", "[distill][reference]") {
  auto q = quote_of(kCrowded);
  INFO("snippet:\n" << q.snippet << "\ndispatch:\n" << q.dispatch);
  CHECK(q.problems == std::vector<std::string>{});
  CHECK(q.name == "scale_kernel");
  CHECK(q.snippet == "@triton.jit\ndef scale_kernel(x_ptr, y_ptr, scale, BLOCK: tl.constexpr):\n"
                     "    row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK)\n"
                     "    x = tl.load(x_ptr + row * BLOCK + offs)\n    y = x * scale\n"
                     "    tl.store(y_ptr + row * BLOCK + offs, y)");
  CHECK(q.dispatch == "import torch\nimport triton\nimport triton.language as tl\n\nN_COLS = 1024\n\n"
                      "def scale_rows(x, scale):\n    y = torch.empty_like(x)\n"
                      "    scale_kernel[(x.shape[0],)](x, y, scale, BLOCK=N_COLS, num_warps=4)\n    return y");
}

TEST_CASE("every reference kernel of the bundled example trace runs as quoted", "[distill][reference]") {
  std::size_t files = 0;
  for (const auto &e :
       fs::recursive_directory_iterator(fs::path(testing::source_dir()) / "testdata/example-trace/steps")) {
    if (!e.is_regular_file() || e.path().extension() != ".py" ||
        e.path().parent_path().filename() == "tree@no-hardware")
      continue;
    ++files;
    auto code = io::read_file(e.path());
    auto q = quote_of(code);
    INFO(e.path().string() << "\nsnippet:\n" << q.snippet << "\ndispatch:\n" << q.dispatch);
    CHECK(q.problems == std::vector<std::string>{});
    CHECK_FALSE(testsupport::quotes_name(q.all(), "_loader_partition"));
  }
  CHECK(files >= 30);
}

TEST_CASE("generated kernels in Triton, Gluon and CUDA run as quoted", "[distill][reference][generated]") {
  std::vector<tracegen::KernelState> states(5);
  states[1].vec = 4, states[1].persistent = true, states[1].single_pass = true, states[1].reciprocal = true;
  states[2].rows_per_prog = 2, states[2].load_cache = "nc", states[2].vec = 2, states[2].warp_shuffle = true;
  states[3].load_cache = "nc", states[3].vec = 4, states[3].streaming_store = true, states[3].mask_free = true,
  states[3].extra_comment = "two rows in flight";
  // The hostile shapes' dead code: a constant nothing reads, a helper
  // nothing calls, a module constant the kernel reads instead of N_COLS.
  states[4].tune_id = 826245, states[4].tune_comment = "fused the residual add into the normalisation pass";
  states[4].uncalled_fn = "_fused_residual_rmsnorm", states[4].uncalled_claim = "fuses the residual add";
  states[4].mean_by_multiply = true, states[4].block_name = "BLOCK_N", states[4].persistent = true;
  std::size_t checked = 0;
  for (auto dsl : {tracegen::Dsl::Triton, tracegen::Dsl::Gluon, tracegen::Dsl::Cuda})
    for (const char *op : {"rmsnorm", "fused_softmax", "gelu"})
      for (std::size_t s = 0; s < states.size(); ++s) {
        auto spec = tracegen::operator_spec(op, 4096);
        auto code = tracegen::render_kernel(dsl, spec, states[s], 7);
        auto q = quote_of(code);
        INFO(op << " state " << s << "\n" << code << "\nsnippet:\n" << q.snippet << "\ndispatch:\n" << q.dispatch);
        CHECK(q.problems == std::vector<std::string>{});
        CHECK(q.name == tracegen::kernel_name(spec));
        for (const char *absent : {"_WARMUP", "_TUNE_ID", "_fused_residual_rmsnorm"})
          CHECK_FALSE(testsupport::quotes_name(q.all(), absent));
        if (states[s].tune_id) // the dead code is there to be left out
          CHECK((testsupport::quotes_name(code, "_TUNE_ID") &&
                 testsupport::quotes_name(code, "_fused_residual_rmsnorm")));
        if (states[s].mean_by_multiply && std::string(op) == "rmsnorm")
          CHECK(testsupport::quotes_name(q.all(), "INV_N_COLS"));
        ++checked;
      }
  CHECK(checked == 45);
}

TEST_CASE("a reference kernel longer than limits.max_reference_kernel_lines is refused", "[distill][reference]") {
  auto dir = testsupport::fresh_dir("refk-limit");
  io::write_file_atomic(dir / "tight.json", R"({"limits": {"max_reference_kernel_lines": 20}})");
  auto tight = distill::DraftRules::from_config(config::Config::load(dir / "tight.json"));
  auto d = draft(kTritonAutotune, tight);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("limits.max_reference_kernel_lines (20)"));
  // Under the shipped limit it is written.
  CHECK(draft(kTritonAutotune).record);
  auto shipped = config::Config::defaults().data().get("limits").get("max_reference_kernel_lines").as_number();
  CHECK(shipped.value_or(0) >= 200);
  fs::remove_all(dir);
}

TEST_CASE("the quoted-code checker finds what a reference kernel's quote lacks", "[distill][reference]") {
  // The quote before issue 25: the kernel from its last decorator on, the
  // launcher, no imports, no helpers, no autotune configurations.
  std::string kernel = "@triton.jit\ndef rowmax_norm_kernel(x_ptr, y_ptr, n_cols, BLOCK_SIZE: tl.constexpr):\n"
                       "    row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK_SIZE)\n    mask = offs < n_cols\n"
                       "    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0)\n"
                       "    m = tl.reduce(tl.abs(x), 0, _max_combine)\n"
                       "    tl.store(y_ptr + row * n_cols + offs, _scale(x, m), mask=mask)";
  std::string launcher =
      "def rowmax_norm(x: torch.Tensor) -> torch.Tensor:\n    n_rows, n_cols = x.shape\n"
      "    y = torch.empty_like(x)\n    grid = (n_rows,)\n    rowmax_norm_kernel[grid](x, y, n_cols)\n"
      "    return y";
  auto problems = testsupport::check_quoted_code(kTritonAutotune, "rowmax_norm_kernel", kernel, launcher).problems;
  auto has = [&](const std::string &text) {
    return std::any_of(problems.begin(), problems.end(), [&](const std::string &p) { return p.find(text) != p.npos; });
  };
  CHECK(has("decorator line not quoted: @triton.autotune("));
  CHECK(has("reads '_max_combine'"));
  CHECK(has("reads '_scale'"));
  CHECK(has("reads 'tl'"));
  CHECK(has("reads 'torch'"));
  // A multi-line constant cut after its first line leaves a bracket open;
  // a line that is not the file's is named.
  auto cut = testsupport::check_quoted_code(kTritonAutotune, "rowmax_norm_kernel", kernel,
                                            "import triton\n\nCONFIGS = [\n\n" + launcher + "\n\n    return x + 1")
                 .problems;
  CHECK(std::any_of(cut.begin(), cut.end(), [](const std::string &p) { return p.find("bracket open") != p.npos; }));
  CHECK(std::any_of(cut.begin(), cut.end(), [](const std::string &p) { return p.find("return x + 1") != p.npos; }));
}

TEST_CASE("a reference kernel quotes a fallback import, a DSL setup call and a class that launches it",
          "[distill][reference]") {
  const char *code = R"PY(import argparse

import torch
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except ImportError:
    from triton.language.extra.cuda import libdevice


def _alloc(size, alignment, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


triton.set_allocator(_alloc)

parser = argparse.ArgumentParser()
args = parser.parse_args([])


@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def gelu_kernel(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476)), mask=offs < n)


class Gelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, n, BLOCK=1024)
        return x


def bench_gelu():
    x = torch.randn(1 << 20, device="cuda")
    gelu_kernel[(1024,)](x, x.numel(), BLOCK=1024)
)PY";
  auto q = quote_of(code);
  INFO("snippet:\n" << q.snippet << "\ndispatch:\n" << q.dispatch);
  CHECK(q.problems == std::vector<std::string>{});
  CHECK_THAT(q.snippet, Catch::StartsWith("@triton.heuristics({\"EVEN\": lambda args:"));
  CHECK_THAT(q.dispatch, Catch::Contains("try:\n    from triton.language.extra import libdevice\nexcept ImportError:\n"
                                         "    from triton.language.extra.cuda import libdevice") &&
                             Catch::Contains("triton.set_allocator(_alloc)") &&
                             Catch::Contains("def _alloc(size, alignment, stream):") &&
                             Catch::Contains("class Gelu(torch.autograd.Function):"));
  // The lambda's `args` is not the module's; the bench launcher goes when
  // another function launches the kernel.
  for (const char *absent : {"argparse", "parser", "bench_gelu"})
    CHECK_FALSE(testsupport::quotes_name(q.all(), absent));
}

TEST_CASE("a reference kernel quotes the typing names, caches and plain globals its code reads", "[distill][issue25]") {
  // From the review: a launcher annotated with `Tuple`, a module-level cache
  // dict it fills, and a plain module global the @jit kernel reads.
  const char *code = R"PY(import torch
import triton
import triton.language as tl
from typing import Dict
from typing import Tuple

_CACHE: Dict[int, torch.Tensor] = {}
SCALE = 0.5
UNUSED_GLOBAL = 7


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * SCALE, mask=m)


def _out(n: int, device) -> torch.Tensor:
    if n not in _CACHE:
        _CACHE[n] = torch.empty(n, device=device)
    return _CACHE[n]


def scale(x: torch.Tensor) -> Tuple[torch.Tensor, int]:
    y = _out(x.numel(), x.device)
    scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y, x.numel()
)PY";
  auto q = quote_of(code);
  INFO(q.all());
  CHECK(q.problems.empty());
  CHECK_THAT(q.dispatch, Catch::Contains("from typing import Tuple"));
  CHECK_THAT(q.dispatch, Catch::Contains("from typing import Dict"));
  CHECK_THAT(q.dispatch, Catch::Contains("_CACHE: Dict[int, torch.Tensor] = {}"));
  CHECK_THAT(q.all(), Catch::Contains("SCALE = 0.5"));
  CHECK_THAT(q.all(), !Catch::Contains("UNUSED_GLOBAL"));
}

TEST_CASE("a reference kernel file within the limit is quoted whole, a longer one by selection", "[distill][issue25]") {
  // The reader takes the snippet for the code to run: the whole file.
  auto d = draft(kTritonAutotune);
  REQUIRE(d.record);
  const auto &impl = d.record->get("payload").get("implementation");
  CHECK(impl.string_or("snippet") ==
        std::string(kTritonAutotune).substr(0, std::string(kTritonAutotune).find_last_not_of('\n') + 1));
  CHECK(impl.string_or("core_kernel_name") == "rowmax_norm_kernel");
  CHECK_THAT(impl.string_or("dispatch_snippet"), Catch::Contains("rowmax_norm_kernel[grid](x, y, n_cols)"));
  // A whole-line comment holding the scrubber's phrase for a version id is
  // left out (it reads as an artefact); the code is untouched.
  std::string scrubbed = std::string(kTritonAutotune);
  scrubbed.replace(scrubbed.find("@triton.jit\ndef rowmax_norm_kernel"), 0, "# tuned in an earlier step\n");
  scrubbed.replace(scrubbed.find("@triton.autotune("), 0, "# see an earlier step's note\n");
  // A constant nothing reads (assigned again, as a stamp), whose comment
  // holds the phrase: it runs for nothing.
  scrubbed.replace(scrubbed.find("_WARMUP = 25"), 0,
                   "_TUNE_ID = 971854  # an earlier step: persistent grid\n_TUNE_ID = 5  # an earlier step: warps\n");
  auto w = draft(scrubbed);
  REQUIRE(w.record);
  auto ws = w.record->get("payload").get("implementation").string_or("snippet");
  CHECK(ws.find("an earlier step") == std::string::npos);
  CHECK(ws == impl.string_or("snippet"));
  // A docstring's changelog line too, the docstring kept valid.
  scrubbed.replace(scrubbed.find("def _reference(x):\n") + 19, 0,
                   "    \"\"\"Reference.\n\n    an earlier step: changed BLOCK_SIZE from 128 to 64.\n    \"\"\"\n");
  auto doc = draft(scrubbed);
  REQUIRE(doc.record);
  auto ds = doc.record->get("payload").get("implementation").string_or("snippet");
  CHECK(ds.find("an earlier step") == std::string::npos);
  CHECK_THAT(ds, Catch::Contains("def _reference(x):\n    \"\"\"Reference.\n\n    \"\"\"\n"));
  // A constant the code reads keeps its line, comment and all.
  scrubbed.replace(scrubbed.find("_WARMUP = 25") + 12, 0, "  # an earlier step: longer warm-up");
  auto read = draft(scrubbed);
  REQUIRE(read.record);
  CHECK_THAT(read.record->get("payload").get("implementation").string_or("snippet"),
             Catch::Contains("_WARMUP = 25  # an earlier step: longer warm-up"));
  // Over the limit, the selection (which fits) is quoted.
  auto dir = testsupport::fresh_dir("refk-selection");
  auto lines = distill::reference_kernel_code(kTritonAutotune)->quoted_lines;
  io::write_file_atomic(dir / "limit.json",
                        R"({"limits": {"max_reference_kernel_lines": )" + std::to_string(lines) + "}}");
  auto rules = distill::DraftRules::from_config(config::Config::load(dir / "limit.json"));
  auto s = draft(kTritonAutotune, rules);
  REQUIRE(s.record);
  CHECK(s.record->get("payload").get("implementation").string_or("snippet") ==
        distill::reference_kernel_code(kTritonAutotune)->snippet);
  fs::remove_all(dir);
}

TEST_CASE("a comment that sets a name the code sets otherwise is not quoted", "[distill][issue25]") {
  // Kit 45, R12: a comment-only "kept" step left "# BLOCK_N = 2048" above
  // the kernel's `BLOCK_N = 1024`.
  const std::string src = "import triton\nimport triton.language as tl\n"
                          "# BLOCK_N = 2048  (tuned for the large shapes)\n"
                          "# NUM_WARPS = 8  (kept)\n"
                          "BLOCK_N = 1024\nNUM_WARPS = 8\n"
                          "@triton.jit\ndef k(x_ptr, N: tl.constexpr):\n    x = tl.load(x_ptr + tl.arange(0, N))\n"
                          "def run(x):\n    k[(1,)](x, N=BLOCK_N, num_warps=NUM_WARPS)\n";
  auto code = distill::reference_kernel_code(src);
  REQUIRE(code);
  CHECK(code->whole_file.find("BLOCK_N = 2048") == std::string::npos);
  CHECK(code->whole_file.find("# NUM_WARPS = 8  (kept)") != std::string::npos); // agrees with the code
  CHECK(code->whole_file.find("BLOCK_N = 1024") != std::string::npos);
}
