#include <catch2/catch.hpp>

#include "code/inert_changes.hpp"
#include "code/inert_code.hpp"
#include "distill/draft_context.hpp"

using namespace otm;
using Why = code::InertCode::Why;

namespace {

const char *kTritonKernel = R"(import torch
import triton
import triton.language as tl

_TUNE_ID = 826245  # fused the residual add into the normalisation pass
_WARMUP = 25
BLOCK_N = 1024
_CFG = dict(block=BLOCK_N, tune=_TUNE_ID)


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    unused = tl.zeros([BLOCK], dtype=tl.float32)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    var = tl.sum(x * x, axis=0) / n_cols
    tl.store(y_ptr + row * n_cols + cols, x / tl.sqrt(var + eps), mask=cols < n_cols)


def _loader_partition(x_ptr):
    pass


def rmsnorm(x, w, eps=1e-6):
    y = torch.empty_like(x)
    grid = (x.shape[0],)
    rmsnorm_kernel[grid](x, w, y, x.shape[1], eps, BLOCK=BLOCK_N, num_warps=8)
    return y
)";

std::vector<std::size_t> lines_of(const code::InertCode &c, Why why) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < c.lines.size(); ++i)
    if (c.lines[i] == why) out.push_back(i + 1); // 1-based, as an editor shows them
  return out;
}

} // namespace

TEST_CASE("inert code: a constant nothing reads, and what only it reads, run for nothing", "[inert]") {
  auto c = code::find_inert_code(kTritonKernel, code::Language::Python);
  // _CFG is read by nothing, so _TUNE_ID (read only by _CFG) is unread too;
  // BLOCK_N is read by the launch; `unused` by nothing.
  CHECK(c.unread_names == std::vector<std::string>{"_WARMUP", "_CFG", "unused", "_TUNE_ID"});
  CHECK(lines_of(c, Why::UnreadName) == std::vector<std::size_t>{5, 6, 8, 15});
  CHECK_FALSE(c.is_inert(6)); // BLOCK_N = 1024 (line 7)
  CHECK(c.live_names.count("BLOCK_N"));
  // _loader_partition is an old function: it may be the harness's entry point.
  CHECK(c.uncalled_functions.empty());
  CHECK_FALSE(c.is_inert(21));
}

TEST_CASE("inert code: only new functions can be uncalled, and a launch keeps its assignment live", "[inert]") {
  auto c = code::find_inert_code(kTritonKernel, code::Language::Python, {"_loader_partition", "rmsnorm"});
  CHECK(c.uncalled_functions == std::vector<std::string>{"_loader_partition", "rmsnorm"});
  CHECK(lines_of(c, Why::UncalledFunction) == std::vector<std::size_t>{21, 22, 25, 26, 27, 28, 29});

  std::string launch = "def run(x):\n"
                       "    handle = kernel[grid](x)\n" // a launch acts though its handle is unread
                       "    _ = torch.cuda.synchronize()\n"
                       "    t = time.time()\n" // an impure call
                       "    n = max(1, 2)\n"   // a pure one
                       "    return x\n";
  auto l = code::find_inert_code(launch, code::Language::Python);
  CHECK(lines_of(l, Why::UnreadName) == std::vector<std::size_t>{5});
}

TEST_CASE("inert code: keyword arguments on continuation lines are not assignments", "[inert]") {
  std::string src = "def run(x):\n"
                    "    kernel[grid](\n"
                    "        x,\n"
                    "        BLOCK_N=1024,\n"
                    "        num_warps=8,\n"
                    "    )\n"
                    "TABLE = {\n"
                    "    'a': 1,\n"
                    "}\n";
  auto c = code::find_inert_code(src, code::Language::Python);
  CHECK(lines_of(c, Why::UnreadName) == std::vector<std::size_t>{7, 8, 9}); // the whole unread statement
  CHECK_FALSE(c.is_inert(3));
}

TEST_CASE("inert code: a keyword argument's name reads nothing", "[inert]") {
  // Kit 57, N42: a Gluon layout's `order=[1, 0]` kept a host
  // `order = torch.argsort(...)` that nothing reads alive.
  std::string src = "def run(x, lengths):\n"
                    "    order = torch.argsort(lengths)\n"
                    "    L = gl.BlockedLayout([1, 4], [1, 32], [4, 1], order=[1, 0])\n"
                    "    return kernel[grid](x, L, flag = order == 1)\n";
  auto c = code::find_inert_code(src, code::Language::Python);
  CHECK(c.unread_names.empty()); // `flag = order == 1` reads `order`
  auto unread = code::find_inert_code("def run(x, lengths):\n"
                                      "    order = torch.argsort(lengths)\n"
                                      "    L = gl.BlockedLayout([1, 4], [1, 32], [4, 1], order=[1, 0])\n"
                                      "    return kernel[grid](x, L)\n",
                                      code::Language::Python);
  CHECK(unread.unread_names == std::vector<std::string>{"order"});
}

TEST_CASE("inert code: embedded CUDA source, #define and constexpr", "[inert]") {
  std::string src = "cuda_src = r'''\n"
                    "#define UNROLL 4\n"
                    "#define TUNE_TAG 17\n"
                    "constexpr int VEC = 4;\n"
                    "constexpr int STALE = 2;\n"
                    "__global__ void k(const float* x, float* y) {\n"
                    "  #pragma unroll UNROLL\n"
                    "  for (int i = 0; i < VEC; ++i) y[i] = x[i];\n"
                    "}\n"
                    "'''\n"
                    "mod = load_inline(name='k', cuda_sources=[cuda_src])\n";
  auto c = code::find_inert_code(src, code::Language::Python);
  CHECK(lines_of(c, Why::UnreadName) == std::vector<std::size_t>{3, 5});
  CHECK_FALSE(c.is_inert(1));
  CHECK_FALSE(c.is_inert(3));
}

TEST_CASE("inert code: a CUDA device helper nothing calls runs for nothing", "[inert]") {
  // Round 12: a reference kernel built on "__ldg" loads whose helper no
  // kernel called.
  std::string src = "cuda_src = r'''\n"                                          // 1
                    "template <typename T>\n"                                    // 2
                    "__device__ __forceinline__ T ld_ro(const T* p) {\n"         // 3
                    "    return __ldg(p);\n"                                     // 4
                    "}\n"                                                        // 5
                    "__device__ float ld_plain(const float* p) { return *p; }\n" // 6
                    "__device__ float twice(float v);\n"                         // 7
                    "__global__ void k(const float* x, float* y) {\n"            // 8
                    "  y[threadIdx.x] = ld_plain(x + threadIdx.x);\n"            // 9
                    "}\n"                                                        // 10
                    "'''\n"                                                      // 11
                    "mod = load_inline(name='k', cuda_sources=[cuda_src])\n";    // 12
  auto c = code::find_inert_code(src, code::Language::Python, {"ld_ro", "ld_plain", "twice"});
  CHECK(lines_of(c, Why::UncalledFunction) == std::vector<std::size_t>{2, 3, 4, 5});
  CHECK(c.uncalled_functions == std::vector<std::string>{"ld_ro"});
  CHECK_FALSE(c.is_inert(5)); // ld_plain: the kernel calls it
  CHECK_FALSE(c.is_inert(6)); // a declaration is no definition
  // Not named by the caller: an old helper may be what a harness calls.
  CHECK_FALSE(code::find_inert_code(src, code::Language::Python).is_inert(3));
}

TEST_CASE("inert changes: a diff that only moves a dead constant runs for nothing", "[inert]") {
  std::string after = kTritonKernel;
  std::string diff = "diff --git a/kernel.py b/kernel.py\n"
                     "--- a/kernel.py\n"
                     "+++ b/kernel.py\n"
                     "@@ -5,3 +5,3 @@ import triton.language as tl\n"
                     "-_TUNE_ID = 113  # row-wise rms\n"
                     "+_TUNE_ID = 826245  # fused the residual add into the normalisation pass\n"
                     " _WARMUP = 25\n"
                     " BLOCK_N = 1024\n"
                     "@@ -37,3 +37,3 @@ def rmsnorm(x, w, eps=1e-6):\n"
                     "     grid = (x.shape[0],)\n"
                     "-    rmsnorm_kernel[grid](x, w, y, x.shape[1], eps, BLOCK=BLOCK_N, num_warps=4)\n"
                     "+    rmsnorm_kernel[grid](x, w, y, x.shape[1], eps, BLOCK=BLOCK_N, num_warps=8)\n"
                     "     return y\n";
  auto lexed = code::lex_diff(diff);
  auto with_file = code::inert_changes(lexed, after);
  CHECK(with_file.running == 2); // the launch, both sides
  CHECK(with_file.inert_code == 2);
  CHECK(with_file.unread_names == std::vector<std::string>{"_TUNE_ID"});
  CHECK(with_file.lines[4] == Why::UnreadName);
  CHECK(with_file.lines[5] == Why::UnreadName);
  CHECK(with_file.runs(10));
  CHECK(with_file.runs(11));
  // Without the file only the line kinds decide: all four lines run.
  CHECK(code::inert_changes(lexed, std::nullopt).running == 4);

  // Only the constant changed: nothing runs.
  std::string only = "diff --git a/kernel.py b/kernel.py\n"
                     "--- a/kernel.py\n"
                     "+++ b/kernel.py\n"
                     "@@ -5 +5 @@ import triton.language as tl\n"
                     "-_TUNE_ID = 113  # row-wise rms\n"
                     "+_TUNE_ID = 826245  # fused the residual add into the normalisation pass\n";
  CHECK(code::inert_changes(code::lex_diff(only), after).running == 0);
  CHECK(code::inert_changes(code::lex_diff(only), std::nullopt).running == 2);
}

TEST_CASE("inert changes: a build name's version id in a string is a stamp", "[inert]") {
  // Round 13: a kept step whose only code change was load_inline's
  // `name="gqa_decode_v130"` -> `"gqa_decode_v135"`, credited as "THREADS 256 -> 128".
  auto diff = [](const std::string &before, const std::string &after_line) {
    return "diff --git a/kernel.py b/kernel.py\n"
           "--- a/kernel.py\n"
           "+++ b/kernel.py\n"
           "@@ -10,3 +10,3 @@ def _ext():\n"
           "         _EXT = load_inline(\n"
           "-            " +
           before +
           "\n"
           "+            " +
           after_line +
           "\n"
           "             cuda_sources=[_CUDA_SRC],\n";
  };
  const std::string renamed = diff("name=\"gqa_decode_v130\",", "name=\"gqa_decode_v135\",");
  auto stamp = code::lex_diff(renamed); // views into `renamed`
  auto reading = code::inert_changes(stamp, std::nullopt);
  CHECK(reading.running == 0);
  CHECK(reading.lines[5] == Why::NotCode);
  CHECK(reading.lines[6] == Why::NotCode);
  // Another string, or a version id in code, is a change.
  CHECK(
      code::inert_changes(code::lex_diff(diff("name=\"gqa_decode_v130\",", "name=\"gqa_prefill_v135\",")), std::nullopt)
          .running == 2);
  CHECK(code::inert_changes(code::lex_diff(diff("extra_cuda_cflags=[\"-O2\"],", "extra_cuda_cflags=[\"-O3\"],")),
                            std::nullopt)
            .running == 2);
}

TEST_CASE("inert changes: a new helper drawn above another function's decorator runs for nothing", "[inert]") {
  // Round 13: git drew a dead `@triton.jit` helper as `+def helper ... +@triton.jit`
  // below the old kernel's decorator, so the added decorator read as the live kernel's.
  const std::string after = "import triton\n"                           // 0
                            "import triton.language as tl\n"            // 1
                            "\n"                                        // 2
                            "\n"                                        // 3
                            "@triton.jit\n"                             // 4
                            "def _helper(ptr, offs):\n"                 // 5
                            "    return tl.load(ptr + offs)\n"          // 6
                            "\n"                                        // 7
                            "\n"                                        // 8
                            "@triton.jit\n"                             // 9
                            "def kernel(x_ptr, BLOCK: tl.constexpr):\n" // 10
                            "    tl.store(x_ptr, tl.load(x_ptr))\n"     // 11
                            "\n"                                        // 12
                            "\n"                                        // 13
                            "def run(x):\n"                             // 14
                            "    kernel[(1,)](x, BLOCK=4)\n";           // 15
  const std::string diff = "diff --git a/kernel.py b/kernel.py\n"
                           "--- a/kernel.py\n"
                           "+++ b/kernel.py\n"
                           "@@ -3,4 +3,9 @@ import triton.language as tl\n"
                           " \n"
                           " \n"
                           " @triton.jit\n"
                           "+def _helper(ptr, offs):\n"
                           "+    return tl.load(ptr + offs)\n"
                           "+\n"
                           "+\n"
                           "+@triton.jit\n"
                           " def kernel(x_ptr, BLOCK: tl.constexpr):\n";
  auto reading = code::inert_changes(code::lex_diff(diff), after);
  CHECK(reading.running == 0);
  CHECK(reading.uncalled_functions == std::vector<std::string>{"_helper"});
  // Called by the kernel, the same diff runs.
  std::string called = after;
  called.replace(called.find("tl.store(x_ptr, tl.load(x_ptr))"), 31, "tl.store(x_ptr, _helper(x_ptr, 0))");
  CHECK(code::inert_changes(code::lex_diff(diff), called).running > 0);
}

TEST_CASE("inert changes: a new function nothing calls, and one that is called", "[inert]") {
  std::string after = "def helper(x):\n"
                      "    return x * 2\n"
                      "\n"
                      "def _loader_partition(x):\n"
                      "    y = x + 1\n"
                      "    return y\n"
                      "\n"
                      "def run(x):\n"
                      "    return helper(x)\n";
  std::string diff = "diff --git a/kernel.py b/kernel.py\n"
                     "--- a/kernel.py\n"
                     "+++ b/kernel.py\n"
                     "@@ -1,0 +1,7 @@\n"
                     "+def helper(x):\n"
                     "+    return x * 2\n"
                     "+\n"
                     "+def _loader_partition(x):\n"
                     "+    y = x + 1\n"
                     "+    return y\n"
                     "+\n"
                     "@@ -2 +9 @@ def run(x):\n"
                     "-    return x\n"
                     "+    return helper(x)\n";
  auto lexed = code::lex_diff(diff);
  auto c = code::inert_changes(lexed, after);
  CHECK(c.uncalled_functions == std::vector<std::string>{"_loader_partition"});
  CHECK(c.runs(4));
  CHECK(c.runs(5));
  CHECK(c.lines[7] == Why::UncalledFunction);
  CHECK(c.lines[8] == Why::UncalledFunction);
  CHECK(c.lines[9] == Why::UncalledFunction);
  CHECK(c.running == 4);
}

TEST_CASE("inert changes: a CUDA device helper the diff adds and nothing calls runs for nothing", "[inert]") {
  // Round 28, W03: an `ld_nc_v4` helper with an ld.global.nc.v4 asm line,
  // added beside the loads the kernel runs and never called.
  std::string after = "cuda_src = r'''\n"                                                               // 0
                      "__device__ __forceinline__ uint4 ld_nc_v4(const void* p) {\n"                    // 1
                      "  uint4 r;\n"                                                                    // 2
                      "  asm volatile(\"ld.global.nc.v4.u32 {%0}, [%1];\" : \"=r\"(r.x) : \"l\"(p));\n" // 3
                      "  return r;\n"                                                                   // 4
                      "}\n"                                                                             // 5
                      "__device__ float twice(float v) { return 2 * v; }\n"                             // 6
                      "__global__ void k(const float* x, float* y) {\n"                                 // 7
                      "  y[threadIdx.x] = twice(x[threadIdx.x]);\n"                                     // 8
                      "}\n"                                                                             // 9
                      "'''\n"                                                                           // 10
                      "mod = load_inline(name='k', cuda_sources=[cuda_src])\n";                         // 11
  std::string diff = "diff --git a/kernel.py b/kernel.py\n"
                     "--- a/kernel.py\n"
                     "+++ b/kernel.py\n"
                     "@@ -1,4 +1,10 @@\n"
                     " cuda_src = r'''\n"
                     "+__device__ __forceinline__ uint4 ld_nc_v4(const void* p) {\n"
                     "+  uint4 r;\n"
                     "+  asm volatile(\"ld.global.nc.v4.u32 {%0}, [%1];\" : \"=r\"(r.x) : \"l\"(p));\n"
                     "+  return r;\n"
                     "+}\n"
                     "+__device__ float twice(float v) { return 2 * v; }\n"
                     " __global__ void k(const float* x, float* y) {\n"
                     "-  y[threadIdx.x] = x[threadIdx.x];\n"
                     "+  y[threadIdx.x] = twice(x[threadIdx.x]);\n"
                     " }\n";
  auto lexed = code::lex_diff(diff);
  auto c = code::inert_changes(lexed, after);
  CHECK(c.uncalled_functions == std::vector<std::string>{"ld_nc_v4"});
  for (std::size_t i = 5; i <= 9; ++i) CHECK(c.lines[i] == Why::UncalledFunction);
  CHECK(c.runs(10)); // twice: the kernel calls it
  CHECK(c.runs(13));
}

TEST_CASE("inert changes: a removed assignment whose reader the diff also removed ran", "[inert]") {
  // Dropping the row max: `m` is read by no line after the change, but the
  // removed `tl.exp(x - m)` read it, so both removals change what runs.
  std::string after = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x_ptr, y_ptr):\n"
                      "    x = tl.load(x_ptr)\n    e = tl.exp(x)\n    tl.store(y_ptr, e / tl.sum(e, axis=0))\n";
  std::string diff = "diff --git a/kernel.py b/kernel.py\n"
                     "--- a/kernel.py\n"
                     "+++ b/kernel.py\n"
                     "@@ -7,4 +7,3 @@ def k(x_ptr, y_ptr):\n"
                     "     x = tl.load(x_ptr)\n"
                     "-    m = tl.max(x, axis=0)\n"
                     "-    e = tl.exp(x - m)\n"
                     "+    e = tl.exp(x)\n"
                     "     tl.store(y_ptr, e / tl.sum(e, axis=0))\n";
  auto inert = code::inert_changes(code::lex_diff(diff), after);
  CHECK(inert.runs(5));
  CHECK(inert.running == 3);
  CHECK(inert.unread_names.empty());
  // A removed constant nothing read, before or after, still runs for nothing.
  std::string dead = "diff --git a/kernel.py b/kernel.py\n"
                     "--- a/kernel.py\n"
                     "+++ b/kernel.py\n"
                     "@@ -7,3 +7,2 @@ def k(x_ptr, y_ptr):\n"
                     "     x = tl.load(x_ptr)\n"
                     "-    _TAG = 3\n"
                     "     e = tl.exp(x)\n";
  auto d = code::inert_changes(code::lex_diff(dead), after);
  CHECK_FALSE(d.runs(5));
  CHECK(d.running == 0);
}

TEST_CASE("inert code: a hint that restates an arange from 0 runs for nothing, one on a row offset runs", "[inert]") {
  const char *kernel = R"(import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, stride_x, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cols = tl.max_contiguous(tl.multiple_of(cols, 8), 8)
    base = row * stride_x
    base = tl.multiple_of(base, 8)
    offs = tl.arange(1, BLOCK)
    offs = tl.multiple_of(offs, 8)
    x = tl.load(x_ptr + base + cols + offs)
    tl.store(y_ptr + base + cols, x)
    for start in range(0, stride_x, BLOCK):
        c = start + tl.arange(0, BLOCK)
        c = tl.max_contiguous(tl.multiple_of(c, 16), 16)
        tl.store(y_ptr + c, tl.load(x_ptr + c))
    for start in range(0, stride_x, 48):
        d = start + tl.arange(0, BLOCK)
        d = tl.multiple_of(d, 16)
        tl.store(y_ptr + d, tl.load(x_ptr + d))
)";
  auto c = code::find_inert_code(kernel, code::Language::Python);
  // Line 9: `cols` is an arange from 0, whose contiguity and alignment the
  // compiler already knows; line 18 the same from a loop's start that steps
  // by the arange's length. Line 11: a row offset's alignment it cannot
  // know. Line 13: an arange from 1 is not aligned; line 22: a start that
  // steps by 48 is not a multiple of the block.
  CHECK(lines_of(c, Why::RestatedHint) == std::vector<std::size_t>{9, 18});
  CHECK(c.restated_hints == std::vector<std::string>{"cols", "c"});
  CHECK(c.unread_names.empty());

  // In a diff that adds it, the hint is a change that runs for nothing.
  const std::string diff = "--- a/kernel.py\n+++ b/kernel.py\n@@ -8,2 +8,3 @@ def k(\n"
                           "     cols = tl.arange(0, BLOCK)\n"
                           "+    cols = tl.max_contiguous(tl.multiple_of(cols, 8), 8)\n"
                           "     base = row * stride_x\n";
  auto lexed = code::lex_diff(diff);
  auto inert = code::inert_changes(lexed, std::string_view(kernel));
  CHECK(inert.running == 0);
  CHECK(inert.inert_code == 1);
  CHECK(inert.restated_hints == std::vector<std::string>{"cols"});

  // Round 11: a hint below what fills a 16-byte load narrows it (the
  // compiler takes the hint over what it derived): a change that runs. The
  // arange's own length restates it.
  std::string narrow = kernel;
  narrow.replace(narrow.find("tl.multiple_of(cols, 8), 8)"), 27, "tl.multiple_of(cols, 4), 4)");
  narrow.replace(narrow.find("tl.multiple_of(c, 16), 16)"), 26, "tl.multiple_of(c, BLOCK), BLOCK)");
  auto n = code::find_inert_code(narrow, code::Language::Python);
  CHECK(lines_of(n, Why::RestatedHint) == std::vector<std::size_t>{18});
  CHECK(n.lines[9] == Why::Live);
}

TEST_CASE("inert code: a shared buffer only stored into runs for nothing, one loaded from runs", "[inert]") {
  // Round 10: a double buffer written every row and never read, credited to
  // the final kernel as "double-buffered row tiles in shared memory".
  auto kernel = [](const std::string &use) {
    return R"(from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def k(x_ptr, y_ptr, n_rows, BLOCK_N: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([8], [32], [4], [0])
    buf = gl.allocate_shared_memory(gl.bfloat16, [2, BLOCK_N], gl.SwizzledSharedLayout(8, 1, 4, [1, 0]))
    cols = gl.arange(0, BLOCK_N, layout=layout)
    for row in range(gl.program_id(0), n_rows, gl.num_programs(0)):
        x = gl.load(x_ptr + row * BLOCK_N + cols).to(gl.float32)
        staged = gl.convert_layout(x * 2.0, layout)
        buf.index(row % 2).store(staged)
)" + use + R"(        gl.store(y_ptr + row * BLOCK_N + cols, x)
)";
  };
  const std::string dead = kernel("");
  auto inert = code::find_inert_code(dead, code::Language::Python);
  auto line_of = [](const std::string &text, const std::string &needle) {
    auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  };
  CHECK(inert.lines[line_of(dead, "buf = ")] == Why::UnreadName);
  CHECK(inert.lines[line_of(dead, "buf.index")] == Why::UnreadName);
  CHECK(inert.owner[line_of(dead, "buf.index")] == "buf");
  // What only the store read is dead with it.
  CHECK(inert.lines[line_of(dead, "staged = ")] == Why::UnreadName);
  CHECK(inert.lines[line_of(dead, "x = gl.load")] == Why::Live);
  CHECK(std::count(inert.unread_names.begin(), inert.unread_names.end(), "buf") == 1);
  // Loaded back: the buffer and its store run.
  const std::string live = kernel("        x = buf.index(row % 2).load(layout).to(gl.float32)\n");
  auto used = code::find_inert_code(live, code::Language::Python);
  CHECK(used.lines[line_of(live, "buf = ")] == Why::Live);
  CHECK(used.lines[line_of(live, "buf.index(row % 2).store")] == Why::Live);
  CHECK(used.lines[line_of(live, "staged = ")] == Why::Live);
  // Passed on (to a copy, a barrier wait): read.
  const std::string passed = kernel("        gl.thread_barrier()\n        _consume(buf)\n");
  CHECK(code::find_inert_code(passed, code::Language::Python).lines[line_of(passed, "buf = ")] == Why::Live);
}

TEST_CASE("inert code: a C shared array only stored into and an allocation nothing reads run for nothing", "[inert]") {
  // Round 12: an `x_stage` tile "staged, never read back" and a `staging_ws`
  // workspace allocated in the host code, each the whole change of a kept
  // step whose claim (a PTX load, a register cache) a reference kernel
  // then built on.
  auto kernel = [](const std::string &use) {
    return "cuda_src = r'''\n"
           "__global__ void k(const float* x, float* y, int n) {\n"
           "    __shared__ float red[32];\n"
           "    __shared__ __align__(16) float x_stage[256 * 4];\n"
           "    float v = x[threadIdx.x];\n"
           "    x_stage[threadIdx.x * 4] = v;  // staged\n"
           "    red[threadIdx.x % 32] = v;\n" +
           use +
           "    y[threadIdx.x] = red[0];\n"
           "}\n"
           "torch::Tensor run(torch::Tensor x) {\n"
           "    auto y = torch::empty_like(x);\n"
           "    auto staging_ws = torch::empty({x.size(0)}, x.options().dtype(torch::kFloat));\n"
           "    k<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(0));\n"
           "    return y;\n"
           "}\n"
           "'''\n"
           "_partials = torch.empty(1024, dtype=torch.float32, device='cuda')\n"
           "mod = load_inline(name='k', cuda_sources=[cuda_src])\n";
  };
  auto line_of = [](const std::string &text, const std::string &needle) {
    auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  };
  const std::string dead = kernel("");
  auto inert = code::find_inert_code(dead, code::Language::Python);
  CHECK(inert.lines[line_of(dead, "__align__(16) float x_stage")] == Why::UnreadName);
  CHECK(inert.lines[line_of(dead, "x_stage[threadIdx.x * 4] = v")] == Why::UnreadName);
  CHECK(inert.lines[line_of(dead, "auto staging_ws")] == Why::UnreadName);
  CHECK(inert.lines[line_of(dead, "_partials = ")] == Why::UnreadName);
  // Read back, an array and its stores run; so does an allocation a kernel reads.
  CHECK(inert.lines[line_of(dead, "__shared__ float red[32]")] == Why::Live);
  CHECK(inert.lines[line_of(dead, "red[threadIdx.x % 32] = v")] == Why::Live);
  CHECK(inert.lines[line_of(dead, "float v = x[")] == Why::Live);
  CHECK(inert.lines[line_of(dead, "auto y = torch::empty_like")] == Why::Live);
  const std::string live = kernel("    v += x_stage[(threadIdx.x + 1) % 256 * 4];\n");
  auto used = code::find_inert_code(live, code::Language::Python);
  CHECK(used.lines[line_of(live, "__align__(16) float x_stage")] == Why::Live);
  CHECK(used.lines[line_of(live, "x_stage[threadIdx.x * 4] = v")] == Why::Live);
  // `return buf[i];` reads an array; it declares nothing.
  CHECK(code::names_defined_by("return x_stage[i];", true).empty());
}

TEST_CASE("a kernel file's device helpers are what only the kernel can call", "[inert][distill]") {
  std::string src = "cuda_src = r'''\n"
                    "__device__ float ld_ro(const float* p) { return __ldg(p); }\n"
                    "__global__ void k(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x]; }\n"
                    "'''\n"
                    "mod = load_inline(name='k', cuda_sources=[cuda_src])\n";
  auto c = distill::drafting::kernel_inert_code(src, "kernel.py");
  CHECK(c.uncalled_functions == std::vector<std::string>{"ld_ro"});
  CHECK(c.is_inert(1));
  CHECK_FALSE(c.is_inert(2)); // a __global__ kernel is launched from the host
}

TEST_CASE("inert code: a constant passed only to a kernel parameter the body never reads runs for nothing",
          "[inert][issue25]") {
  // Round 18: ROWS_PER_PROG, passed by keyword to a persistent kernel that
  // loops over rows by the grid and reads it nowhere.
  auto file = [](const std::string &body_line) {
    return "import triton\n"
           "import triton.language as tl\n"
           "ROWS_PER_PROG = 4\n"
           "BLOCK = 1024\n"
           "@triton.jit\n"
           "def _k(x_ptr, M,\n"
           "       BLOCK: tl.constexpr, ROWS_PER_PROG: tl.constexpr):\n"
           "    for row in range(tl.program_id(0), M, tl.num_programs(0)):\n" +
           body_line +
           "        tl.store(x_ptr + row * BLOCK + tl.arange(0, BLOCK), 0.0)\n"
           "def run(x, M):\n"
           "    _k[(M,)](x, M, BLOCK=BLOCK,\n"
           "             ROWS_PER_PROG=ROWS_PER_PROG, num_warps=4)\n";
  };
  auto unread = code::find_inert_code(file("        pass\n"), code::Language::Python);
  CHECK(unread.unread_names == std::vector<std::string>{"ROWS_PER_PROG"});
  CHECK(unread.is_inert(2));
  CHECK_FALSE(unread.is_inert(3)); // BLOCK is read by the body
  // Read by the body: live.
  auto read =
      code::find_inert_code(file("        tl.store(x_ptr + M * ROWS_PER_PROG + row, 1.0)\n"), code::Language::Python);
  CHECK(read.unread_names.empty());
  CHECK_FALSE(read.is_inert(2));
  // A default value reads its name: live too.
  auto defaulted = file("        pass\n");
  defaulted.replace(defaulted.find("ROWS_PER_PROG: tl.constexpr"), std::string("ROWS_PER_PROG: tl.constexpr").size(),
                    "ROWS_PER_PROG: tl.constexpr = ROWS_PER_PROG");
  CHECK_FALSE(code::find_inert_code(defaulted, code::Language::Python).is_inert(2));
}

TEST_CASE("inert changes: a launch keyword's new value for a parameter the body never reads runs for nothing",
          "[inert][issue25]") {
  // Kit 42, N11: `VEC=1` -> `VEC=8` in the launch of a kernel that reads
  // no VEC, credited with 128-bit loads.
  auto file = [](const std::string &vec, const std::string &body_line) {
    return "import triton\n"
           "import triton.language as tl\n"
           "@triton.jit\n"
           "def _k(x_ptr, N, BLOCK: tl.constexpr, VEC: tl.constexpr):\n"
           "    cols = tl.arange(0, BLOCK)\n" +
           body_line +
           "    tl.store(x_ptr + cols, tl.load(x_ptr + cols, mask=cols < N))\n"
           "def run(x, N):\n"
           "    _k[(1,)](x, N, BLOCK=1024,\n"
           "             VEC=" +
           vec + ", num_warps=4)\n";
  };
  const std::string diff = "--- a/kernel.py\n+++ b/kernel.py\n@@ -7,3 +7,3 @@ def run(x, N):\n"
                           " def run(x, N):\n"
                           "     _k[(1,)](x, N, BLOCK=1024,\n"
                           "-             VEC=1, num_warps=4)\n"
                           "+             VEC=8, num_warps=4)\n";
  auto unread = code::inert_changes(code::lex_diff(diff), file("8", ""));
  CHECK(unread.running == 0);
  // The body reads VEC: the new value runs.
  const std::string diff_read = "--- a/kernel.py\n+++ b/kernel.py\n@@ -8,3 +8,3 @@ def run(x, N):\n"
                                " def run(x, N):\n"
                                "     _k[(1,)](x, N, BLOCK=1024,\n"
                                "-             VEC=1, num_warps=4)\n"
                                "+             VEC=8, num_warps=4)\n";
  auto read = code::inert_changes(code::lex_diff(diff_read),
                                  file("8", "    cols = tl.max_contiguous(tl.multiple_of(cols, VEC), VEC)\n"));
  CHECK(read.running == 2);
  // Another keyword changed on the same line runs (its removed side, at least).
  const std::string both = "--- a/kernel.py\n+++ b/kernel.py\n@@ -7,3 +7,3 @@ def run(x, N):\n"
                           " def run(x, N):\n"
                           "     _k[(1,)](x, N, BLOCK=1024,\n"
                           "-             VEC=1, num_warps=8)\n"
                           "+             VEC=8, num_warps=4)\n";
  CHECK(code::inert_changes(code::lex_diff(both), file("8", "")).running > 0);
}

TEST_CASE("inert code: a function only its own body names is called by nothing", "[inert][issue25]") {
  // Kit 45, R34: a loader partition that passes itself to warp_specialize,
  // which no line outside it calls.
  const std::string src = "import triton\n"
                          "@gluon.jit\n"
                          "def _load_partition(a, n):\n"
                          "    gl.warp_specialize((), None, (a, n), [_load_partition])\n"
                          "    x = a + n\n"
                          "@gluon.jit\n"
                          "def kernel(a, n):\n"
                          "    y = a * n\n"
                          "    gl.store(a, y)\n"
                          "def run(a, n):\n"
                          "    kernel[(1,)](a, n)\n";
  auto c = code::find_inert_code(src, code::Language::Python, {"_load_partition", "kernel"});
  CHECK(c.uncalled_functions == std::vector<std::string>{"_load_partition"});
}

TEST_CASE("inert code: a module constant a JIT kernel's parameter shadows is read by no kernel line",
          "[inert][issue25]") {
  // Kit 61, J01: `BN = 64` beside an autotuned kernel that takes
  // `BN: tl.constexpr` from its configs; the launch passes no BN.
  const std::string autotuned = "import triton\nimport triton.language as tl\nBN = 64\nVEC = 4\n\n"
                                "@triton.autotune(configs=[triton.Config({'BN': 32})], key=['N'])\n"
                                "@triton.jit\n"
                                "def k(x_ptr, N, BN: tl.constexpr, VEC: tl.constexpr):\n"
                                "    offs = tl.max_contiguous(tl.arange(0, BN), VEC)\n"
                                "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < N), mask=offs < N)\n\n"
                                "def run(x):\n    k[lambda META: (1,)](x, x.numel(), VEC=VEC)\n";
  auto c = code::find_inert_code(autotuned, code::Language::Python);
  CHECK(c.unread_names == std::vector<std::string>{"BN"});
  CHECK(c.is_inert(2));       // BN = 64
  CHECK_FALSE(c.is_inert(3)); // VEC = 4: the launch passes it
  // Passed by the launch, the constant is read there.
  std::string passed = autotuned;
  passed.replace(passed.find("VEC=VEC)"), 8, "BN=BN, VEC=VEC)");
  CHECK(code::find_inert_code(passed, code::Language::Python).unread_names.empty());
  // A kernel that rebinds the name may read it before: left as read.
  std::string rebound = autotuned;
  rebound.replace(rebound.find("    offs = tl.max_contiguous("), 0, "    BN = BN * 2\n");
  CHECK(code::find_inert_code(rebound, code::Language::Python).unread_names.empty());
}
