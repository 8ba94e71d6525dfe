#include <catch2/catch.hpp>

#include "code/c_constants.hpp"
#include "code/compile_errors.hpp"
#include "code/stuck_loops.hpp"

using namespace otm;

namespace {

std::string kernel_file(const std::string &device, const std::string &host, const std::string &python = "") {
  return "from torch.utils.cpp_extension import load_inline\n"
         "_CUDA_SRC = r\"\"\"\n"
         "#include <cuda_runtime.h>\n"
         "__global__ void k(const float* __restrict__ x, float* y, int n_cols) {\n"
         "    const size_t base = (size_t)blockIdx.x * n_cols;\n" +
         device +
         "}\n"
         "torch::Tensor run(torch::Tensor x) {\n"
         "    int n_cols = x.size(1);\n" +
         host +
         "    return x;\n"
         "}\n"
         "\"\"\"\n" +
         python + "_EXT = load_inline(name='k', cuda_sources=[_CUDA_SRC], functions=['run'])\n";
}

} // namespace

TEST_CASE("cuda compile errors: a %% no Python formatting turns into % stops the compiler", "[compile]") {
  // Round 12: a raw-string dispatch `if (n_cols %% VEC == 0 ...)` handed
  // straight to load_inline, in a kernel the trace marks PASS.
  const auto bad = kernel_file("    y[base] = x[base];\n", "    if (n_cols %% 4 == 0) printf(\"%%d\\n\", n_cols);\n");
  auto errors = code::cuda_compile_errors(bad);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].line == 10);
  CHECK(errors[0].code == "if (n_cols %% 4 == 0) printf( , n_cols)");
  // A `%%` inside a C string literal is printf's, and a source Python
  // %-formats turns `%%` into `%`.
  CHECK(code::cuda_compile_errors(kernel_file("", "    printf(\"%%d\\n\", n_cols);\n")).empty());
  const auto formatted =
      "_CUDA_SRC = r\"\"\"\n__global__ void k(int n) { if (n %% %(VEC)d) return; }\n\"\"\" % {'VEC': 4}\n";
  CHECK(code::cuda_compile_errors(formatted).empty());
  const auto by_name = kernel_file("", "    if (n_cols %% 4 == 0) return x;\n", "_CUDA_SRC = _CUDA_SRC % ()\n");
  CHECK(code::cuda_compile_errors(by_name).empty());
}

TEST_CASE("cuda compile errors: a subscript on a name declared only as a scalar", "[compile]") {
  // Round 12: a scalar tail `to_f32(x + base[c])` on `size_t base`.
  const auto bad = kernel_file("    for (int c = threadIdx.x; c < n_cols; c += blockDim.x) y[c] = x + base[c];\n", "");
  auto errors = code::cuda_compile_errors(bad);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].line == 6);
  CHECK(errors[0].code == "base[");
  // Indexing a pointer (a parameter, a local pointer, an array) compiles;
  // so does a scalar named like a pointer elsewhere in the source.
  CHECK(code::cuda_compile_errors(kernel_file("    y[base] = x[base];\n", "")).empty());
  CHECK(code::cuda_compile_errors(
            kernel_file("    const float* row = x + base;\n    float acc[4];\n    acc[0] = row[threadIdx.x];\n", ""))
            .empty());
  CHECK(code::cuda_compile_errors(
            kernel_file("", "", "")
                .append("_OTHER = r\"\"\"\n__device__ float f(const float* base) { return base[0]; }\n\"\"\"\n"))
            .empty());
  // Python with no embedded source has nothing to compile here.
  CHECK(code::cuda_compile_errors("x = y % 2\nz = w[3]\n").empty());
}

TEST_CASE("gluon compile errors: a shared buffer of the other 16-bit float type stored into", "[compile]") {
  // Round 12: `gl.allocate_shared_memory(gl.float16, ...)` caching bf16
  // rows in a kernel whose problem is bf16.
  auto kernel = [](const std::string &value) {
    return "from triton.experimental import gluon\n"
           "from triton.experimental.gluon import language as gl\n"
           "@gluon.jit\n"
           "def k(x_ptr, N_TILES: gl.constexpr, BLOCK_N: gl.constexpr):\n"
           "    row_smem = gl.allocate_shared_memory(gl.float16, [N_TILES, BLOCK_N], layout)\n"
           "    hh = gl.load(x_ptr + cols)\n"
           "    row_smem.index(0).store(" +
           value + ")\n";
  };
  auto errors = code::gluon_compile_errors(kernel("hh"), "bfloat16");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].line == 7);
  // The problem's own type, a converted value, or no known dtype: no error.
  CHECK(code::gluon_compile_errors(kernel("hh"), "float16").empty());
  CHECK(code::gluon_compile_errors(kernel("hh.to(gl.float16)"), "bfloat16").empty());
  CHECK(code::gluon_compile_errors(kernel("hh"), "float32").empty());
}

TEST_CASE("triton compile errors: an fp16 accumulator a tl.dot turns float32 inside the loop", "[compile]") {
  // Round 13: "fp16 accumulation fails accuracy", for an edit Triton refuses.
  auto kernel = [](const std::string &init, const std::string &update) {
    return "import triton\nimport triton.language as tl\n\n@triton.jit\n"
           "def k(x_ptr, w_ptr, y_ptr, K, BLOCK_K: tl.constexpr):\n"
           "    acc = tl.zeros([16, 64], dtype=tl." +
           init +
           ")\n"
           "    for k0 in range(0, K, BLOCK_K):\n"
           "        x = tl.load(x_ptr + k0)\n"
           "        w = tl.load(w_ptr + k0)\n"
           "        " +
           update +
           "\n"
           "    tl.store(y_ptr, acc)\n";
  };
  auto errors = code::triton_compile_errors(kernel("float16", "acc += tl.dot(x, w)"));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].line == 10);
  CHECK_THAT(errors[0].why, Catch::Contains("starts as float16 (line 6)"));
  CHECK(code::triton_compile_errors(kernel("float16", "acc = acc + tl.dot(x, w)")).size() == 1);
  // float32, an fp16 out_dtype, or a conversion back: it builds.
  CHECK(code::triton_compile_errors(kernel("float32", "acc += tl.dot(x, w)")).empty());
  CHECK(code::triton_compile_errors(kernel("float16", "acc += tl.dot(x, w, out_dtype=tl.float16)")).empty());
  CHECK(code::triton_compile_errors(kernel("float16", "acc += tl.dot(x, w).to(tl.float16)")).empty());
  // Round 13, Gluon: a positional dtype, and a float32 factor.
  const std::string gluon = "@gluon.jit\n"
                            "def k(x_ptr, n_cols, BLOCK_N: gl.constexpr):\n"
                            "    m = gl.full([BLOCK_N], -float('inf'), gl.float32, layout)\n"
                            "    d = gl.zeros([BLOCK_N], gl.float16, layout)\n"
                            "    for t in range(0, n_cols, BLOCK_N):\n"
                            "        x = gl.load(x_ptr + t).to(gl.float32)\n"
                            "        m_new = gl.maximum(m, x)\n"
                            "        alpha = gl.exp2(m - m_new)\n"
                            "        d = d * alpha + 1.0\n"
                            "        m = m_new\n";
  auto widened = code::triton_compile_errors(gluon);
  REQUIRE(widened.size() == 1);
  CHECK(widened[0].line == 9);
  CHECK_THAT(widened[0].why, Catch::Contains("float32 `alpha`"));
  std::string halved = gluon;
  halved.replace(halved.find("d = d * alpha + 1.0"), 19, "d = (d * alpha + 1.0).to(gl.float16)");
  CHECK(code::triton_compile_errors(halved).empty());
}

TEST_CASE("stuck loops: a for loop whose step is a compile-time zero", "[compile]") {
  // Round 13: KV_VEC=2 with HEAD_DIM=128 leaves 64 lanes per key in a
  // 32-lane warp, and the key loop steps by WARPS * 0.
  auto kernel = [](const std::string &vec) {
    return "_SRC = r\"\"\"\n"
           "constexpr int HEAD_DIM = 128;\n"
           "constexpr int KV_VEC = " +
           vec +
           ";\n"
           "#define WARPS (128 / 32)\n"
           "constexpr int LANES_PER_KEY = HEAD_DIM / KV_VEC;\n"
           "constexpr int KEYS_PER_WARP = 32 / LANES_PER_KEY;\n"
           "__global__ void k(const float* q, int lo, int hi) {\n"
           "    for (int n = lo + threadIdx.x / LANES_PER_KEY; n < hi; n += WARPS * KEYS_PER_WARP) { }\n"
           "    for (int i = 0; i < KV_VEC; i += 1) { }\n"
           "}\n"
           "\"\"\"\n";
  };
  auto stuck = code::stuck_loops(kernel("2"), code::Language::Python);
  REQUIRE(stuck.size() == 1);
  CHECK(stuck[0].line == 8);
  CHECK(stuck[0].step == "WARPS * KEYS_PER_WARP");
  CHECK(code::stuck_loops(kernel("8"), code::Language::Python).empty()); // 16 lanes, 2 keys per warp
  // C's integer arithmetic, and a name with two values has none.
  code::CConstants none;
  CHECK(code::evaluate_c_integer("32 / 64", none) == 0);
  CHECK(code::evaluate_c_integer("(7 - 2) * 3 % 4 << 1", none) == 6);
  CHECK_FALSE(code::evaluate_c_integer("1 / 0", none));
  auto twice = code::c_integer_constants("constexpr int V = 4;\nconst int V = n * 2;\nconstexpr int W = 2;");
  CHECK(twice.count("V") == 0);
  CHECK(twice.at("W") == 2);
}
