#include "tracegen/code_change.hpp"

#include <algorithm>

namespace otm::tracegen {

namespace {

bool has_word(const std::string &name, const char *w) { return name.find(w) != std::string::npos; }

struct Names {
  CodeChange out;
  void add(const std::string &n, bool dead = false) {
    if (std::find(out.names.begin(), out.names.end(), n) != out.names.end()) return;
    out.names.push_back(n);
    if (dead) out.dead.push_back(n);
  }
};

// The names the approximation of this operator puts on its lines.
std::string approximation_name(Dsl dsl, const OperatorSpec &op) {
  bool cuda = dsl == Dsl::Cuda;
  if (op.kind == OpKind::RowNorm) return cuda ? "__frsqrt_approx" : "rsqrt_approx";
  if (op.kind == OpKind::RowSoftmax) return cuda ? "__expf" : "fast_expf";
  if (has_word(op.name, "silu") || has_word(op.name, "swish")) return cuda ? "__expf" : "sigmoid";
  return cuda ? "tanhf" : "tanh";
}

void python_names(Names &n, Dsl dsl, const OperatorSpec &op, const KernelState &a, const KernelState &b) {
  if (a.block_name != b.block_name) n.add(a.block_name), n.add(b.block_name);
  if (a.block != b.block) n.add(b.block_name);
  if (a.single_pass != b.single_pass && op.kind != OpKind::Elementwise) n.add("off");
  if (a.warps != b.warps) n.add("num_warps");
  if (a.stages != b.stages) n.add("num_stages");
  if (a.vec != b.vec) {
    if (dsl == Dsl::Gluon) {
      n.add("BlockedLayout");
    } else {
      n.add("max_contiguous");
      n.add("multiple_of");
    }
  }
  if (a.load_cache != b.load_cache || a.streaming_store != b.streaming_store) n.add("cache_modifier");
  if (a.evict_first != b.evict_first) n.add("eviction_policy");
  if (a.rows_per_prog != b.rows_per_prog) n.add("ROWS_PER_PROG");
  bool guard_a = a.rows_per_prog > 1 && a.tail_guard, guard_b = b.rows_per_prog > 1 && b.tail_guard;
  if (guard_a != guard_b) n.add("n_rows");
  if (a.persistent != b.persistent) {
    n.add("NUM_SMS");
    n.add("num_programs");
  }
  if (a.mask_free != b.mask_free) n.add("mask");
}

void cuda_names(Names &n, const OperatorSpec &op, const KernelState &a, const KernelState &b) {
  // An elementwise kernel reads its input in the store loop: no vector
  // loads, no __ldg; only the row kernels' load loop holds them.
  bool loads = op.kind != OpKind::Elementwise;
  if (a.block != b.block) n.add("THREADS");
  if (a.warps != b.warps) n.add("MIN_BLOCKS");
  if (a.stages != b.stages) n.add("UNROLL");
  if (a.vec != b.vec) {
    n.add("VEC");
    if (loads)
      for (unsigned w : {4u, 2u})
        if (a.vec == w || b.vec == w) n.add(w == 4 ? "float4" : "float2");
  }
  // The read-only path: __ldg in the load loop, or an inline-PTX helper per
  // vector width (defined whatever the kernel reads with).
  auto path = [loads](const KernelState &s) {
    if (s.load_cache == "ldg") return std::string(loads ? "__ldg" : "");
    if (s.load_cache == "nc" && (s.vec == 4 || s.vec == 2)) return "v" + std::to_string(s.vec);
    return std::string();
  };
  std::string pa = path(a), pb = path(b);
  if (pa != pb)
    for (const auto &p : {pa, pb}) {
      if (p == "__ldg") n.add("__ldg");
      if (p.starts_with("v"))
        n.add("load_" + p), n.add("ld.global.nc." + p + ".f32"), n.add(p == "v4" ? "float4" : "float2");
    }
  if (a.streaming_store != b.streaming_store) n.add("__stcs");
  if (a.persistent != b.persistent) n.add("gridDim");
  if (a.warp_shuffle != b.warp_shuffle) n.add("__shfl_xor_sync");
}

} // namespace

CodeChange code_change(Dsl dsl, const OperatorSpec &op, const KernelState &a, const KernelState &b) {
  Names n;
  bool cuda = dsl == Dsl::Cuda;
  if (cuda)
    cuda_names(n, op, a, b);
  else
    python_names(n, dsl, op, a, b);
  if (a.reciprocal != b.reciprocal && op.kind != OpKind::Elementwise)
    n.add(op.kind == OpKind::RowNorm ? (cuda ? "rsqrtf" : "rsqrt") : "inv");
  if (a.fast_math != b.fast_math) n.add(approximation_name(dsl, op));
  if (a.mean_by_multiply != b.mean_by_multiply && op.kind == OpKind::RowNorm) n.add("INV_N_COLS");
  if (a.warmup != b.warmup) n.add("_WARMUP", true);
  if (a.tune_id != b.tune_id) n.add("_TUNE_ID", true);
  if (a.uncalled_fn != b.uncalled_fn)
    for (const auto &f : {a.uncalled_fn, b.uncalled_fn})
      if (!f.empty()) n.add(f, true);
  return n.out;
}

} // namespace otm::tracegen
