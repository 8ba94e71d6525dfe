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
)" + body + R"(

_NUM_SMS = None

def softmax(x):
    global _NUM_SMS
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_N = 4096
    single = )" + single + R"( and n_cols <= BLOCK_N
    if _NUM_SMS is None:
        _NUM_SMS = torch.cuda.get_device_properties(x.device).multi_processor_count
    softmax_kernel[(n_rows,)](out, x, n_rows, n_cols,
                              BLOCK_N=BLOCK_N, SINGLE_PASS=single,
                              num_warps=8)" + launch_extra + R"()
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
