// Which benchmarked shapes run code a change leaves as it was
// (code/shape_paths): the launch each shape gets, and the kernel body its
// constexprs select.
#include <catch2/catch.hpp>

#include "code/shape_paths.hpp"

using namespace otm;

namespace {

// A Triton softmax whose launcher picks a single-pass branch for rows that
// fit; `{branch}` is the kernel body, `{single}` the switch.
std::string kernel(const std::string &body, const std::string &single, const std::string &launch_extra = "") {
  return R"(import torch
import triton
import triton.language as tl

_TUNE_TAG = 0x2307  # bookkeeping, read by nothing
LOG2E = 1.4426950408889634


@triton.jit
def softmax_kernel(out_ptr, in_ptr, n_rows, n_cols,
                   BLOCK_N: tl.constexpr, SINGLE_PASS: tl.constexpr):
    """Row-wise softmax."""
    row = tl.program_id(0)
)" + body +
         R"(

_NUM_SMS = None

def softmax(x):
    global _NUM_SMS
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_N = 4096
    single = )" +
         single + R"( and n_cols <= BLOCK_N
    if _NUM_SMS is None:
        _NUM_SMS = torch.cuda.get_device_properties(x.device).multi_processor_count
    softmax_kernel[(n_rows,)](out, x, n_rows, n_cols,
                              BLOCK_N=BLOCK_N, SINGLE_PASS=single,
                              num_warps=8)" +
         launch_extra + R"()
    return out
)";
}

const std::string three_pass = R"(    m = tl.max(tl.load(in_ptr + row), axis=0)
    s = tl.sum(tl.exp2((tl.load(in_ptr + row) - m) * LOG2E), axis=0)
    tl.store(out_ptr + row, tl.exp2((tl.load(in_ptr + row) - m) * LOG2E) / s))";

const std::string branched = R"(    if SINGLE_PASS:
        x = tl.load(in_ptr + row)
        e = tl.exp2((x - tl.max(x, axis=0)) * LOG2E)
        tl.store(out_ptr + row, e / tl.sum(e, axis=0))
    else:
        m = tl.max(tl.load(in_ptr + row), axis=0)  # pass 1
        s = tl.sum(tl.exp2((tl.load(in_ptr + row) - m) * LOG2E), axis=0)

        tl.store(out_ptr + row, tl.exp2((tl.load(in_ptr + row) - m) * LOG2E) / s))";

std::vector<code::ShapeAxes> shapes() {
  // r / c in the workload; n_rows / n_cols in the definition and launcher.
  return {{{{"r", 1}, {"c", 128}}}, {{{"r", 4096}, {"c", 4096}}}, {{{"r", 32}, {"c", 32768}}}};
}

const std::vector<std::string> axes{"n_rows", "n_cols"};

} // namespace

TEST_CASE("a change confined to one branch reaches only the shapes that take it", "[code][issue25]") {
  // The three-pass body moved into the `else` arm of a new single-pass
  // branch, and the switch turned on: rows of 128 and 4096 columns take
  // the new arm; rows of 32768 columns still run the three passes.
  auto runs = code::shapes_running_changed_code(kernel(three_pass, "False"), kernel(branched, "True"), shapes(), axes);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0] == std::optional<bool>(true));
  CHECK(runs[1] == std::optional<bool>(true));
  CHECK(runs[2] == std::optional<bool>(false));
  // A change inside the `else` arm alone reaches only the long rows.
  std::string faster_else = branched;
  faster_else.replace(faster_else.find("(x - tl.max"), 0, "");
  faster_else.replace(faster_else.rfind("/ s)"), 4, "* (1.0 / s))");
  runs = code::shapes_running_changed_code(kernel(branched, "True"), kernel(faster_else, "True"), shapes(), axes);
  CHECK(runs == std::vector<std::optional<bool>>{false, false, true});
  // A stamp nothing reads, a comment and a blank line change nothing.
  std::string stamped = kernel(branched, "True");
  stamped.replace(stamped.find("0x2307"), 6, "0xc486");
  runs = code::shapes_running_changed_code(kernel(branched, "True"), stamped, shapes(), axes);
  CHECK(runs == std::vector<std::optional<bool>>{false, false, false});
}

TEST_CASE("a launch setting, a module constant or an unknown reaches every shape", "[code][issue25]") {
  // A launch option every shape passes.
  auto runs = code::shapes_running_changed_code(kernel(branched, "True"), kernel(branched, "True", ", num_stages=2"),
                                                shapes(), axes);
  CHECK(runs == std::vector<std::optional<bool>>{true, true, true});
  // A constant the kernel reads.
  std::string other_constant = kernel(branched, "True");
  other_constant.replace(other_constant.find("1.4426950408889634"), 18, "1.4427");
  runs = code::shapes_running_changed_code(kernel(branched, "True"), other_constant, shapes(), axes);
  CHECK(runs == std::vector<std::optional<bool>>{true, true, true});
  // A grid that depends on what the launcher cannot know (the SM count)
  // differs from one that does not, for every shape.
  std::string persistent = kernel(branched, "True");
  persistent.replace(persistent.find("softmax_kernel[(n_rows,)]"), 25, "softmax_kernel[(min(n_rows, _NUM_SMS * 4),)]");
  runs = code::shapes_running_changed_code(kernel(branched, "True"), persistent, shapes(), axes);
  CHECK(runs == std::vector<std::optional<bool>>{true, true, true});
  // What the evaluator cannot read is compared as its text over its
  // bindings: a block that binds a name differently, a changed lambda.
  auto blocked = [](const std::string &value) {
    std::string k = kernel(branched, "True");
    k.replace(k.find("    BLOCK_N = 4096\n"), 19,
              "    if n_cols > 8192:\n        BLOCK_N = " + value + "\n    else:\n        BLOCK_N = 4096\n");
    return k;
  };
  runs = code::shapes_running_changed_code(blocked("8192"), blocked("16384"), shapes(), axes);
  CHECK(runs == std::vector<std::optional<bool>>{true, true, true});
  CHECK(code::shapes_running_changed_code(blocked("8192"), blocked("8192"), shapes(), axes) ==
        std::vector<std::optional<bool>>{false, false, false});
  auto lambda_grid = [](const std::string &rows) {
    std::string k = kernel(branched, "True");
    k.replace(k.find("softmax_kernel[(n_rows,)]"), 25, "softmax_kernel[lambda META: (" + rows + ",)]");
    return k;
  };
  CHECK(code::shapes_running_changed_code(lambda_grid("n_rows"), lambda_grid("n_rows // 2"), shapes(), axes) ==
        std::vector<std::optional<bool>>{true, true, true});
}

TEST_CASE("a constant only the launcher read, replaced by a rule giving its value, reaches no shape",
          "[code][issue25]") {
  // Round 14: `num_warps = NUM_WARPS` (4) became a heuristic that gives 4
  // for every benchmarked row width; NUM_WARPS was then read by nothing.
  auto with = [](const std::string &warps) {
    std::string k = kernel(branched, "True");
    k.replace(k.find("_NUM_SMS = None\n"), 16, "_NUM_SMS = None\nNUM_WARPS = 8\n");
    k.replace(k.find("    BLOCK_N = 4096\n"), 19, "    BLOCK_N = 4096\n    warps = " + warps + "\n");
    k.replace(k.find("num_warps=8"), 11, "num_warps=warps");
    return k;
  };
  CHECK(code::shapes_running_changed_code(with("NUM_WARPS"), with("8 if BLOCK_N <= 8192 else 16"), shapes(), axes) ==
        std::vector<std::optional<bool>>{false, false, false});
  CHECK(code::shapes_running_changed_code(with("NUM_WARPS"), with("4 if BLOCK_N <= 2048 else 16"), shapes(), axes) ==
        std::vector<std::optional<bool>>{true, true, true});
}

TEST_CASE("what the reading cannot follow gives no answer", "[code][issue25]") {
  auto unknown = std::vector<std::optional<bool>>(3);
  // No launcher of a JIT function.
  CHECK(code::shapes_running_changed_code("x = 1\n", "x = 2\n", shapes(), axes) == unknown);
  // Embedded CUDA source: its changes are inside strings.
  const std::string cuda = "src = r'''\n__global__ void k(float *x) { x[0] = 1; }\n'''\nmod = load_inline(src)\n";
  CHECK(code::shapes_running_changed_code(cuda, cuda + "\n", shapes(), axes) == unknown);
  // A launch inside a block: which shapes reach it is the block's.
  std::string guarded = kernel(branched, "True");
  guarded.replace(guarded.find("    softmax_kernel[(n_rows,)]"), 4, "    if n_rows > 0:\n        ");
  CHECK(code::shapes_running_changed_code(guarded, guarded, shapes(), axes) == unknown);
  // An `elif` a constexpr decides.
  std::string elif = branched;
  elif.replace(elif.find("    else:"), 9, "    elif BLOCK_N > 1:");
  CHECK(code::shapes_running_changed_code(kernel(branched, "True"), kernel(elif, "True"), shapes(), axes) == unknown);
  // Shape axes the launcher's names cannot be bound to: nothing is known
  // about the switch, so the branch's change reaches every shape.
  auto runs = code::shapes_running_changed_code(kernel(branched, "True"), kernel(three_pass, "True"), shapes(),
                                                {"rows", "cols"});
  CHECK(runs == std::vector<std::optional<bool>>{true, true, true});
}

TEST_CASE("a loop whose last step reads past a bound the shape does not divide", "[code][issue25]") {
  // Rounds 12 and 13: an int4 GEMV stepping BLOCK_K=512 over K with masks
  // on M and N only; K=11008 is 21.5 steps.
  auto gemv = [](const std::string &x_mask, const std::string &launch_block = "512") {
    return R"(import torch
import triton
import triton.language as tl


@triton.jit
def gemv_kernel(x_ptr, w_ptr, y_ptr, M, N, K, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    offs_n = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = offs_n < N
    offs_k = tl.arange(0, BLOCK_K)
    k_hi = tl.minimum(K, K)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for k0 in range(0, k_hi, BLOCK_K):
        kk = k0 + offs_k
        w = tl.load(w_ptr + offs_n[:, None] * K + kk[None, :], mask=n_mask[:, None])
        x = tl.load(x_ptr + kk)" +
           x_mask + R"()
        acc += tl.sum(w * x[None, :], axis=1)
    tl.store(y_ptr + offs_n, acc, mask=n_mask)


def gemv(x, w):
    M, K = x.shape
    N = w.shape[0]
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    gemv_kernel[(triton.cdiv(N, 64),)](x, w, y, M, N, K, BLOCK_N=64, BLOCK_K=)" +
           launch_block + R"()
    return y
)";
  };
  const std::vector<code::ShapeAxes> shapes = {{{{"M", 1}, {"N", 4096}, {"K", 4096}}},
                                               {{{"M", 1}, {"N", 4096}, {"K", 11008}}}};
  const std::vector<std::string> axes{"M", "N", "K"};
  auto tails = code::unmasked_tails(gemv(""), shapes, axes);
  REQUIRE(tails.size() == 2);
  CHECK_FALSE(tails[0]); // 4096 is 8 steps of 512
  REQUIRE(tails[1]);
  CHECK(tails[1]->loop == "for k0 in range(0, k_hi, BLOCK_K)");
  CHECK(tails[1]->pointers == std::vector<std::string>{"w_ptr", "x_ptr"});
  CHECK(tails[1]->bound == "K");
  CHECK(tails[1]->bound_value == 11008);
  CHECK(tails[1]->step_value == 512);
  // Masked on the loop (through `kk`), every step stays in bounds...
  auto masked = code::unmasked_tails(gemv(", mask=kk < K, other=0.0"), shapes, axes);
  REQUIRE(masked[1]);
  CHECK(masked[1]->pointers == std::vector<std::string>{"w_ptr"}); // w still masks only N
  // ...and a step that divides every shape's K reads none past the end.
  auto divides = code::unmasked_tails(gemv("", "256"), shapes, axes);
  CHECK_FALSE(divides[0]);
  CHECK_FALSE(divides[1]);
}

TEST_CASE("the shared memory a Gluon kernel allocates for each shape", "[code][issue25]") {
  // Round 14: a whole fp16 row staged in shared memory, [cdiv(N, BLOCK_N),
  // BLOCK_N]: 258 KB at N=128256, over the 227 KB one block may use.
  auto kernel = [](const std::string &branch) {
    return R"(import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

MAX_BLOCK_N = 1024


@gluon.jit
def _softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK_N: gl.constexpr, N_TILES: gl.constexpr,
                    STAGE: gl.constexpr, layout: gl.constexpr, smem_layout: gl.constexpr):
    pid = gl.program_id(0)
)" + branch +
           R"(    offs = gl.arange(0, BLOCK_N, layout=layout)
    x = gl.load(in_ptr + pid * n_cols + offs)
    gl.store(out_ptr + pid * n_cols + offs, x)


def softmax(x):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_N = min(triton.next_power_of_2(n_cols), MAX_BLOCK_N)
    layout = gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0])
    smem_layout = gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])
    _softmax_kernel[(n_rows,)](
        out, x, n_cols,
        BLOCK_N=BLOCK_N, N_TILES=triton.cdiv(n_cols, BLOCK_N), STAGE=n_cols > 4096, layout=layout,
        smem_layout=smem_layout)
    return out
)";
  };
  const std::vector<code::ShapeAxes> shapes = {{{{"M", 1024}, {"N", 4096}}}, {{{"M", 64}, {"N", 128256}}}};
  const std::vector<std::string> axes{"M", "N"};
  auto staged = code::shared_memory_per_shape(
      kernel("    row_smem = gl.allocate_shared_memory(gl.float16, [N_TILES, BLOCK_N], smem_layout)\n"), shapes, axes);
  REQUIRE(staged.size() == 2);
  REQUIRE(staged[0]);
  CHECK(staged[0]->bytes == 4 * 1024 * 2);
  REQUIRE(staged[1]);
  CHECK(staged[1]->bytes == 126 * 1024 * 2); // 258,048 bytes
  CHECK(staged[1]->allocations ==
        std::vector<std::string>{"gl.allocate_shared_memory(gl.float16, [N_TILES, BLOCK_N], smem_layout)"});
  // In an arm the shape's constexprs do not take, it is not allocated.
  auto branch = code::shared_memory_per_shape(
      kernel(
          "    if STAGE:\n        buf = gl.allocate_shared_memory(gl.float32, [2, N_TILES, BLOCK_N], smem_layout)\n"),
      shapes, axes);
  CHECK_FALSE(branch[0]);
  REQUIRE(branch[1]);
  CHECK(branch[1]->bytes == 2LL * 126 * 1024 * 4);
  // No allocation, no answer.
  CHECK_FALSE(code::shared_memory_per_shape(kernel(""), shapes, axes)[1]);
}

TEST_CASE("shape paths: a definition's constant axis binds by its name or alias, never by position", "[shape_paths]") {
  // Round 14 (E03): `B, Hq, D = q.shape` with head_dim a constant 128 of
  // the definition; a second launch (the split reduce) after the kernel's.
  const std::string source = R"(import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

BLOCK_N = 256


@gluon.jit
def decode_kernel(q_ptr, o_ptr, S, HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr, smem_layout: gl.constexpr):
    k_smem = gl.allocate_shared_memory(gl.float16, [2, BLOCK_N, HEAD_DIM], smem_layout)
    v_smem = gl.allocate_shared_memory(gl.float16, [2, BLOCK_N, HEAD_DIM], smem_layout)


@gluon.jit
def reduce_kernel(o_ptr, HEAD_DIM: gl.constexpr):
    pass


def decode(q, k_cache):
    B, Hq, D = q.shape
    Hkv, S = k_cache.shape[1], k_cache.shape[2]
    o = q.new_empty(q.shape)
    smem_layout = gl.SwizzledSharedLayout(1, 1, 1, order=[1, 0])
    decode_kernel[(B, Hq)](q, o, S, HEAD_DIM=D, BLOCK_N=BLOCK_N, smem_layout=smem_layout)
    if S > 4096:
        reduce_kernel[(B * Hq,)](o, HEAD_DIM=D)
    return o
)";
  const std::vector<std::string> axes{"B", "Hq", "Hkv", "S"};
  code::ShapeAxes::Values workload{{"B", 4}, {"Hq", 32}, {"Hkv", 8}, {"S", 16384}};
  auto bound = code::shared_memory_per_shape(source, {{workload, {{"head_dim", 128}, {"D", 128}}}}, axes);
  REQUIRE(bound.size() == 1);
  REQUIRE(bound[0]);
  CHECK(bound[0]->bytes == 2LL * 2 * 256 * 128 * 2); // 256 KB: two double-buffered fp16 tiles
  // Without the alias `D` is unknown, and so is the allocation.
  CHECK_FALSE(code::shared_memory_per_shape(source, {{workload, {{"head_dim", 128}}}}, axes)[0]);
  // A constant never binds by position: the unpack names three, four vary.
  CHECK_FALSE(code::shared_memory_per_shape(source, {{workload}}, axes)[0]);
}
