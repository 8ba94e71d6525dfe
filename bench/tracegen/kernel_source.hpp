// The kernel a generated trace optimises, as a state of tunable parameters
// and structural choices, rendered as the kernel.py of one DSL: Triton,
// Gluon, or CUDA C++ held in torch.utils.cpp_extension.load_inline strings
// (with inline PTX such as ld.global.nc.v4.f32 for vector loads). Every
// render starts with a module docstring and a `# revision N` comment that
// change at every commit, and an unrelated bench constant, so real diffs
// carry docstring, comment and unrelated hunks around the change itself.
#pragma once

#include <string>

#include "tracegen/trace_options.hpp"

namespace otm::tracegen {

// What an operator computes, by kind.
enum class OpKind { RowNorm, RowSoftmax, Elementwise };
struct OperatorSpec {
  std::string name; // as given (rmsnorm, fused_softmax, gelu, ...)
  OpKind kind = OpKind::RowNorm;
  std::string what;       // one sentence for definition.json
  unsigned n_cols = 4096; // the fixed axis N
};
// The kind from the name's words (norm -> RowNorm, softmax/logsumexp ->
// RowSoftmax, anything else -> Elementwise); N from the seed.
OperatorSpec operator_spec(const std::string &name, unsigned n_cols);

struct KernelState {
  unsigned block = 256; // BLOCK_SIZE (Triton/Gluon) or THREADS (CUDA)
  unsigned warps = 4;   // num_warps (Triton/Gluon) or MIN_BLOCKS of __launch_bounds__ (CUDA)
  unsigned stages = 1;  // num_stages (Triton/Gluon) or UNROLL (CUDA)
  unsigned vec = 1;     // elements per vector load: 1, 2 or 4 (hints, or .v2/.v4 PTX)
  unsigned rows_per_prog = 1;
  bool tail_guard = true;       // the row-packing guard (a buggy first commit lacks it)
  std::string load_cache;       // "" or ".cg" (Triton/Gluon cache_modifier), "ldg"/"nc" (CUDA)
  bool streaming_store = false; // .cs stores / __stcs
  bool evict_first = false;
  bool persistent = false;
  bool single_pass = false;             // the whole row in registers: one read per row
  bool reciprocal = false;              // one reciprocal per row, a multiply per element
  bool fast_math = false;               // the approximation that fails the accuracy check
  bool mask_free = false;               // no column mask (N a multiple of the block)
  bool warp_shuffle = false;            // CUDA: warp-shuffle reduction instead of shared memory
  unsigned warmup = 25;                 // _WARMUP, a bench constant nothing in the kernel uses
  std::string extra_comment;            // one more comment line in the kernel body ("" for none)
  std::string tuning_note = "baseline"; // the docstring's "Tuning log:" line
  std::string docs_note;                // a further docstring paragraph ("" for none)
  // What only the hostile shapes set (tracegen/hostile_shapes.hpp); the
  // defaults render nothing, so the ordinary traces stay byte-identical.
  std::string block_name = "BLOCK_SIZE"; // the Triton/Gluon tile constexpr (BLOCK_N under renamed levers)
  bool mean_by_multiply = false;         // row norms: acc * INV_N_COLS, a module constant, instead of acc / N_COLS
  unsigned long tune_id = 0;             // a module constant _TUNE_ID nothing reads (0: none)
  std::string tune_comment;              // the comment line above _TUNE_ID ("" for none)
  std::string claim_comment;             // a comment far from the change it describes ("" for none):
  bool claim_at_wrapper = false;         // above the Python wrapper (always for CUDA), else at module level
  std::string uncalled_fn;               // the name of a helper the file defines and nothing calls ("" for none)
  std::string uncalled_claim;            // that helper's docstring or comment
  std::string note_comment;              // a comment on the kernel body's first line ("" for none)
  std::string doc_quote;                 // a last docstring paragraph ("" for none)
};

// kernel.py for commit number `revision` (the `# revision N` line).
std::string render_kernel(Dsl dsl, const OperatorSpec &op, const KernelState &s, unsigned revision);
// The name of the kernel function the file defines (what a capture profiles).
std::string kernel_name(const OperatorSpec &op);

} // namespace otm::tracegen
