// The blocks a CUDA source's host code launches per shape
// (code::cuda_blocks_launched; issue 25, round 10: split-K "to fill all
// SMs" on a CUDA GEMV whose grid is `dim3 grid(...)`).
#include <catch2/catch.hpp>

#include "code/cuda_launch.hpp"
#include "code/shape_paths.hpp"

using namespace otm;

namespace {

std::string gemv(const std::string &constants, const std::string &host_prelude, const std::string &grid) {
  return R"(import torch
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
#include <cuda_fp16.h>
)" + constants +
         R"(
extern "C" __global__ void gemv_kernel(const half* x, float* y, int N, int K) {
  for (int k = threadIdx.x; k < K; k += blockDim.x) y[blockIdx.x] += 1.f;
}

extern "C" __global__ void finalize(const float* ws, half* y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) y[i] = __float2half(ws[i]);
}

void launch(torch::Tensor x, torch::Tensor y, torch::Tensor ws) {
  const int N = y.size(-1), K = x.size(-1);  // the shape
  TORCH_CHECK(K % 128 == 0, "K must be a multiple of 128");
)" + host_prelude +
         "  gemv_kernel<<<" + grid + R"(, 256>>>((const half*)x.data_ptr(), ws.data_ptr<float>(), N, K);
  finalize<<<(N + 255) / 256, 256>>>(ws.data_ptr<float>(), (half*)y.data_ptr(), N);
}
"""

CPP_SRC = "void launch(torch::Tensor x, torch::Tensor y, torch::Tensor ws);"
_mod = load_inline(name="g", cpp_sources=CPP_SRC, cuda_sources=CUDA_SRC, functions=["launch"])


def gemv(x, w):
    y = torch.empty(w.shape[0], device=x.device, dtype=torch.float16)
    _mod.launch(x, y, torch.zeros_like(y, dtype=torch.float32))
    return y
)";
}

std::vector<std::pair<std::string, double>> shape(double n, double k) { return {{"N", n}, {"K", k}}; }

} // namespace

TEST_CASE("cuda launch: dim3 grid over file-scope constants and the shape's axes", "[grid]") {
  auto split = [](int k) {
    return gemv("constexpr int kRowsPerCta = 4;\nconstexpr int kSplitK = " + std::to_string(k) + ";\n",
                "  dim3 grid((N + kRowsPerCta - 1) / kRowsPerCta, kSplitK);\n", "grid");
  };
  auto outline = code::outline_module(split(8));
  REQUIRE(code::launches_cuda_kernel(outline));
  // The first launch is the kernel's; the finalize epilogue is not counted.
  CHECK(code::cuda_blocks_launched(outline, shape(256, 4096), {}) == 512.0);
  CHECK(code::cuda_blocks_launched(outline, shape(4097, 4096), {}) == 1025.0 * 8);
  // Through programs_per_shape, as otm-packet reads a change.
  auto counts = code::programs_per_shape(split(1), split(8), {{shape(256, 4096)}, {shape(4096, 4096)}}, {}, 148);
  REQUIRE(counts[0]);
  CHECK(counts[0]->before == 64);
  CHECK(counts[0]->after == 512);
  CHECK(counts[1]->before == 1024);
}

TEST_CASE("cuda launch: #define, an inline dim3, the SM count and a scalar grid", "[grid]") {
  auto defined = code::outline_module(gemv("#define ROWS 2\n", "", "dim3((N + ROWS - 1) / ROWS, 1)"));
  CHECK(code::cuda_blocks_launched(defined, shape(1000, 128), {}) == 500.0);
  auto persistent = code::outline_module(
      gemv("", "  int sms = 0;\n  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\n",
           "std::min(N, sms * 2)"));
  CHECK(code::cuda_blocks_launched(persistent, shape(4096, 128), 148) == 296.0);
  CHECK(code::cuda_blocks_launched(persistent, shape(100, 128), 148) == 100.0);
  // Without the product's SM count the persistent grid is not a number.
  CHECK_FALSE(code::cuda_blocks_launched(persistent, shape(4096, 128), {}));
  auto scalar = code::outline_module(gemv("", "", "(N + 3u) / 4u"));
  CHECK(code::cuda_blocks_launched(scalar, shape(4096, 128), {}) == 1024.0);
}

TEST_CASE("cuda launch: a grid a branch or a tensor decides is not counted", "[grid]") {
  auto branch = code::outline_module(gemv("", "  int split = 1;\n  if (K > 4096) split = 4;\n", "dim3(N, split)"));
  CHECK_FALSE(code::cuda_blocks_launched(branch, shape(256, 8192), {}));
  auto block =
      code::outline_module(gemv("", "  int split = 1;\n  if (K > 4096) {\n    split = 4;\n  }\n", "dim3(N, split)"));
  CHECK_FALSE(code::cuda_blocks_launched(block, shape(256, 8192), {}));
  auto tensor = code::outline_module(gemv("", "  const int rows = x.size(0);\n", "rows"));
  CHECK_FALSE(code::cuda_blocks_launched(tensor, shape(256, 8192), {}));
  // A Triton file launches no CUDA kernel.
  CHECK_FALSE(code::launches_cuda_kernel(code::outline_module("import triton\n\n@triton.jit\ndef k(x):\n    pass\n")));
}
