// code::outline_module: the top-level statements of a Python kernel file and
// the C items of its load_inline sources, with what each binds and reads.
#include <catch2/catch.hpp>

#include <algorithm>

#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "code/unbound_names.hpp"

using namespace otm;
using code::CItem;
using code::PythonStatement;
using Kind = PythonStatement::Kind;

namespace {

const PythonStatement &binding(const code::ModuleOutline &o, const std::string &name) {
  for (const auto &s : o.statements)
    if (std::count(s.binds.begin(), s.binds.end(), name)) return s;
  FAIL("nothing binds " << name);
  throw;
}

bool reads(const PythonStatement &s, const std::string &name) { return s.reads.count(name) > 0; }

} // namespace

TEST_CASE("outline: statements with their decorators, clauses and multi-line parts", "[code][outline]") {
  auto o = code::outline_module(R"PY("""Doc of the module.

It spans lines."""
import triton.language as tl
from triton import (
    jit,
    autotune as tune,
)
try:
    from triton.language.extra import libdevice
except ImportError:
    from triton.language.extra.cuda import libdevice

CONFIGS = [
    {"BLOCK": 128},
]
# a comment between statements

@tune(
    configs=CONFIGS,
    key=["n"],
)
@jit
def kernel(x_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr)
# a column-0 comment inside the body
    y = libdevice.exp(x) + [v for v in range(3)][0]
    tl.store(x_ptr, y)


if __name__ == "__main__":
    CONFIGS = None
)PY");
  REQUIRE(o.statements.size() == 7);
  CHECK(o.statements[0].kind == Kind::Expression); // the docstring
  CHECK(o.statements[0].end == 3);
  CHECK(o.statements[1].binds == std::vector<std::string>{"tl"});
  CHECK(o.statements[2].kind == Kind::Import);
  CHECK(o.statements[2].binds == std::vector<std::string>{"jit", "tune"});
  CHECK(o.statements[2].end == 8);
  const auto &fallback = o.statements[3];
  CHECK(fallback.kind == Kind::Compound);
  CHECK(fallback.binds == std::vector<std::string>{"libdevice"});
  CHECK(fallback.end == 12);
  const auto &configs = binding(o, "CONFIGS");
  CHECK(configs.kind == Kind::Assignment);
  CHECK(configs.begin == 13);
  CHECK(configs.end == 16); // the comment after it is not its
  const auto &k = o.statements[5];
  CHECK(k.kind == Kind::Function);
  CHECK(k.name == "kernel");
  CHECK(k.begin == 18); // the multi-line decorator
  CHECK(k.header == 23);
  CHECK(k.end == 28); // the column-0 comment does not end the body
  for (const char *name : {"tune", "CONFIGS", "jit", "tl", "libdevice"}) CHECK(reads(k, name));
  // Parameters, locals, comprehension variables, attributes and keyword
  // argument names are not reads.
  for (const char *name : {"x_ptr", "n", "BLOCK", "x", "y", "v", "load", "configs", "key", "kernel"})
    CHECK_FALSE(reads(k, name));
  CHECK(o.statements[6].kind == Kind::MainGuard);
  CHECK(o.statements[6].binds.empty());
}

TEST_CASE("outline: assignments bind their targets, mutations bind what they change", "[code][outline]") {
  auto o = code::outline_module("a, (b, c) = 1, (2, 3)\nX: int = 4\nD = {}\nD[\"k\"] = a\ntorch.backends.flag = True\n"
                                "g = lambda meta: meta[\"B\"] + X\nn += 1\nif ready: z = 1\n");
  REQUIRE(o.statements.size() == 8);
  CHECK(o.statements[0].binds == std::vector<std::string>{"a", "b", "c"});
  CHECK(o.statements[1].binds == std::vector<std::string>{"X"});
  CHECK(o.statements[3].binds == std::vector<std::string>{"D"});
  CHECK(reads(o.statements[3], "a"));
  CHECK(o.statements[4].binds == std::vector<std::string>{"torch"});
  CHECK(reads(o.statements[5], "X"));
  CHECK_FALSE(reads(o.statements[5], "meta"));
  CHECK(o.statements[6].binds == std::vector<std::string>{"n"});
  CHECK(o.statements[7].kind == Kind::Compound);
  CHECK(reads(o.statements[7], "ready"));
}

TEST_CASE("outline: the C items of a load_inline source", "[code][outline]") {
  auto o = code::outline_module(R"PY(cuda_src = r"""
#include <cuda_runtime.h>
#define THREADS 256
#define SQ(a) ((a) * (a) * SCALE)
struct Pair { float a, b; };
__constant__ float W[4] = {1.f, 2.f, 3.f, 4.f};

// helper
template <int N>
__device__ float twice(float v) {
    return N * v;  // "}" in a comment
}

__global__ void __launch_bounds__(THREADS) k(const float* x, Pair p) {
    const char* s = "{";
    float v = twice<2>(x[threadIdx.x]) + W[0] + SQ(p.a);
}
torch::Tensor run(torch::Tensor x);
"""
cpp_src = "torch::Tensor run(torch::Tensor x);"
)PY");
  REQUIRE(o.statements.size() == 2);
  CHECK(o.statements[0].holds_source);
  CHECK(o.statements[0].end == 19);
  std::vector<std::pair<CItem::Kind, std::string>> items;
  for (const auto &c : o.c_items) items.emplace_back(c.kind, c.binds.empty() ? std::string() : c.binds.front());
  std::vector<std::pair<CItem::Kind, std::string>> want = {
      {CItem::Kind::Include, ""},   {CItem::Kind::Define, "THREADS"},  {CItem::Kind::Define, "SQ"},
      {CItem::Kind::Type, "Pair"},  {CItem::Kind::Declaration, "W"},   {CItem::Kind::Function, "twice"},
      {CItem::Kind::Function, "k"}, {CItem::Kind::Declaration, "run"}, {CItem::Kind::Declaration, "run"}};
  CHECK(items == want);
  const auto &twice = o.c_items[5];
  CHECK(twice.begin == 8); // the template line
  CHECK(twice.head.starts_with("template <int N> __device__ float twice("));
  CHECK(twice.end == 12);
  const auto &k = o.c_items[6];
  CHECK(k.end == 17);
  for (const char *name : {"THREADS", "twice", "W", "SQ", "Pair"}) CHECK(k.reads.count(name));
  CHECK_FALSE(k.reads.count("a")); // a member
  CHECK(o.c_items[2].reads.count("SCALE"));
  CHECK_FALSE(o.c_items[2].reads.count("a")); // a macro parameter
  CHECK(o.c_items[8].statement == 1);
  // `template <class T>` is a template of a function, not a class T.
  auto t = code::outline_module("src = \"\"\"\ntemplate <class T>\n__device__ T same(T v) { return v; }\n\"\"\"\n");
  REQUIRE(t.c_items.size() == 1);
  CHECK(t.c_items[0].kind == CItem::Kind::Function);
  CHECK(t.c_items[0].binds == std::vector<std::string>{"same"});
}

TEST_CASE("outline: malformed text is outlined, not refused", "[code][outline]") {
  for (const char *text :
       {"def (", "@jit\n", "\"\"\"never closed\n", "x = [\n", "cuda_src = r\"\"\"\n__global__ void k( {\n",
        "cuda_src = \"\"\"\n#define A \\\n", "\n\n\n", "", "else:\n    pass\n", ")]}\n"}) {
    INFO(text);
    auto o = code::outline_module(text);
    for (const auto &s : o.statements) {
      CHECK(s.begin <= s.header);
      CHECK(s.header < s.end);
      CHECK(s.end <= o.lines.size());
    }
    for (const auto &c : o.c_items) CHECK(c.begin < c.end);
  }
}

TEST_CASE("the names a module reads and binds nowhere", "[code][issue25]") {
  // A kernel whose body reads names its signature never declares.
  const char *broken = R"(import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(in_ptr + row * n_cols + tl.arange(0, BLOCK))
    tl.store(y_ptr + row * BLOCK, x)

def softmax(x):
    y = x.new_empty(x.shape)
    softmax_kernel[(x.shape[0],)](x, y, BLOCK=1024)
    return y
)";
  CHECK(code::unbound_names(broken) == std::vector<std::string>{"in_ptr", "n_cols"});
  // Parameters, locals, loop and comprehension variables, module constants,
  // imports and builtins are bound.
  const char *good = R"(import torch
import triton
import triton.language as tl
from functools import lru_cache

ROWS = 4

@lru_cache
def sms():
    return torch.cuda.get_device_properties(0).multi_processor_count

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    for r in range(ROWS):
        offs = r * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

def run(x):
    grid = lambda meta: (min(sms(), triton.cdiv(x.numel(), meta["BLOCK"])),)
    sizes = [s for s in x.shape if s > 1]
    k[grid](x, len(sizes), BLOCK=256)
    return x
)";
  CHECK(code::unbound_names(good).empty());
  CHECK(code::unbound_names("from m import *\nf(y)\n").empty());
  // A main guard's reads of what it assigns itself are bound (kit 57: a
  // harness block `out = run(*inputs)` refused as reading `out`); what it
  // reads and binds nowhere is not.
  const char *guarded = R"(def run(x):
    return x

if __name__ == "__main__":
    inputs = (1,)
    out = run(*inputs)
    ms = bench(lambda: run(*inputs))
    print(out, ms)
)";
  CHECK(code::unbound_names(guarded) == std::vector<std::string>{"bench"});
  // A read guarded by a test of the module's globals runs only when bound.
  CHECK(code::unbound_names("cfg = CONFIG if \"CONFIG\" in globals() else {}\n").empty());
  CHECK(code::unbound_names("cfg = CONFIG if ok else {}\n") == std::vector<std::string>{"CONFIG", "ok"});
}

TEST_CASE("a JIT function reading a module global that is not a constexpr", "[code][issue25]") {
  // Round 6: reference kernels reading `LOG2E` and `N_COLS` inside
  // `@triton.jit` / `@gluon.jit`, which Triton refuses to compile.
  const char *plain = R"(import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

N_COLS = 4096
LOG2E = 1.4426950408889634
ROWS = tl.constexpr(2)
NUM_SMS = 132
CONFIGS = [triton.Config({"BLOCK": 1024}, num_warps=4)]

@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < N_COLS)
    tl.store(x_ptr + offs, tl.exp2(x * LOG2E) * ROWS)

@gluon.jit(do_not_specialize=["n"])
def g(x_ptr, n):
    gl.store(x_ptr, n < N_COLS)

@torch.jit.script
def host(x):
    return x * NUM_SMS

def run(x):
    k[(NUM_SMS,)](x, BLOCK=N_COLS)
)";
  CHECK(code::non_constexpr_globals_read_by_jit(plain) == std::vector<std::string>{"LOG2E", "N_COLS"});
  // A decorator's arguments (`configs=CONFIGS`) are Python's, not the
  // kernel's. Bound as constexpr, the globals may be read.
  std::string fixed = plain;
  fixed.replace(fixed.find("N_COLS = 4096"), 13, "N_COLS = tl.constexpr(4096)");
  fixed.replace(fixed.find("LOG2E = 1.4426950408889634"), 26, "LOG2E = gl.constexpr(1.4426950408889634)");
  CHECK(code::non_constexpr_globals_read_by_jit(fixed).empty());
  CHECK(code::non_constexpr_globals_read_by_jit("N = 4\ndef f():\n    return N\n").empty());
}
