#include "tracegen/moves.hpp"

#include <algorithm>

namespace otm::tracegen {

namespace {

std::string str(unsigned v) { return std::to_string(v); }

// A value next to `current` in `values` (one or two steps away).
unsigned neighbour(bench::Random &rng, const std::vector<unsigned> &values, unsigned current) {
  auto it = std::find(values.begin(), values.end(), current);
  std::size_t i = it == values.end() ? 0 : static_cast<std::size_t>(it - values.begin());
  std::vector<std::size_t> options;
  for (std::size_t d : {std::size_t(1), std::size_t(2)}) {
    if (i + d < values.size()) options.push_back(i + d);
    if (i >= d) options.push_back(i - d);
  }
  if (options.empty()) return current;
  // Nearer values are likelier.
  std::size_t pick = options[rng.below(options.size())];
  if (rng.chance(60))
    for (auto o : options)
      if (o + 1 == i || o == i + 1) pick = o;
  return values[pick];
}

} // namespace

Move Moves::parameter(const KernelState &from) {
  // Switches already on are rarely switched off again: runs move forward.
  bool off_ok = prose_.rng().chance(15);
  std::vector<std::string> keys = {"warps", "stages", "vec"};
  if (!(python() && from.single_pass)) keys.push_back("block");
  if (off_ok || from.load_cache.empty() || (!python() && from.load_cache == "ldg")) keys.push_back("cache");
  if (off_ok || !from.streaming_store) keys.push_back("store");
  if (python() && (off_ok || !from.evict_first)) keys.push_back("evict");
  return parameter(keys[prose_.rng().below(keys.size())], from);
}

Move Moves::parameter(const std::string &key, const KernelState &from) {
  if (key == "block") return block(from);
  if (key == "warps") return warps(from);
  if (key == "stages") return stages(from);
  if (key == "vec") return vec(from);
  if (key == "cache") return cache(from);
  if (key == "evict") return evict(from);
  return store(from);
}

Move Moves::block(const KernelState &from) {
  Move m;
  m.key = "block";
  m.after = from;
  std::string N = str(op_.n_cols);
  if (python()) {
    std::vector<unsigned> values;
    for (unsigned v = 64; v < op_.n_cols; v *= 2) values.push_back(v);
    unsigned b = neighbour(prose_.rng(), values, from.block), a = from.block;
    m.after.block = b;
    m.name = "BLOCK_SIZE";
    m.subject = prose_.rng().chance(50) ? "BLOCK_SIZE " + str(a) + " -> " + str(b) + " for the " + N + "-wide rows"
                                        : "BLOCK_SIZE=" + str(b) + " (was " + str(a) + ") for the column loop";
    m.change =
        "BLOCK_SIZE " + str(a) + " -> " + str(b) + " so each program covers " + str(b) + " columns per loop iteration.";
    m.expected = b > a ? "half as many loop iterations per row" : "fewer registers live per thread";
    m.body = b > a ? "With BLOCK_SIZE=" + str(b) + " the column loop runs " + str(op_.n_cols / b) +
                         " times per row, so fewer loop-carried reductions are issued."
                   : "A " + str(b) +
                         "-wide tile keeps fewer registers live per thread, so more programs stay "
                         "resident per SM.";
    m.cause = b > a ? "spills registers because each thread keeps " + str(b / 32) + " floats of the tile live"
                    : "doubles the loop trip count and the loop overhead outweighs the occupancy gain";
    m.category = "tiling";
  } else {
    unsigned b = neighbour(prose_.rng(), {64, 128, 256, 512, 1024}, from.block), a = from.block;
    m.after.block = b;
    m.name = "THREADS";
    m.subject = "THREADS " + str(a) + " -> " + str(b) + " per block for the " + N + "-wide rows";
    m.change =
        "THREADS " + str(a) + " -> " + str(b) + " so each block strides the row in " + str(b) + "-thread chunks.";
    m.expected = b > a ? "fewer strided iterations per thread" : "more resident blocks per SM";
    m.body = "With " + str(b) + " threads per block each thread issues " + str(std::max(1u, op_.n_cols / b)) +
             " loads per row, so the reduction tree has fewer levels to climb.";
    m.cause = b > a ? "exceeds the register file at two resident blocks per SM, so occupancy halves"
                    : "leaves half the SM idle because occupancy is capped by the block count";
    m.category = "launch_config";
  }
  return m;
}

Move Moves::warps(const KernelState &from) {
  Move m;
  m.key = "warps";
  m.after = from;
  if (python()) {
    unsigned b = neighbour(prose_.rng(), {1, 2, 4, 8, 16}, from.warps), a = from.warps;
    m.after.warps = b;
    unsigned per_thread = std::max(1u, (from.single_pass ? op_.n_cols : from.block) / (32 * b));
    m.name = "num_warps";
    m.subject = prose_.rng().chance(50) ? "num_warps=" + str(a) + " -> " + str(b)
                                        : "num_warps " + str(a) + " -> " + str(b) + " for the long rows";
    m.change = "num_warps " + str(a) + " -> " + str(b) + " so each thread holds " + str(per_thread) +
               " elements of a row tile.";
    m.expected = b > a ? "more warps to hide the load latency" : "fewer warps competing for the scheduler";
    m.body = prose_.fill("With " + str(b) + " warps each thread keeps " + str(per_thread) +
                         " elements in registers, which {minimises} the register footprint of the row.");
    m.cause = b > a ? "{serialises} the cross-warp reduction through shared memory at every row"
                    : "cannot hide the load latency because occupancy drops to one program per SM";
    m.category = "tuning";
  } else {
    unsigned b = neighbour(prose_.rng(), {1, 2, 3, 4}, from.warps), a = from.warps;
    m.after.warps = b;
    m.name = "MIN_BLOCKS";
    m.subject = "MIN_BLOCKS " + str(a) + " -> " + str(b) + " in __launch_bounds__";
    m.change = "MIN_BLOCKS " + str(a) + " -> " + str(b) +
               " in __launch_bounds__ so the compiler caps the registers "
               "for that many resident blocks per SM.";
    m.expected = b > a ? "more resident blocks per SM" : "more registers per thread for the row accumulators";
    m.body = "Capping the registers for " + str(b) + " blocks per SM keeps " + str(b) +
             " rows in flight on every SM, so the row loads overlap.";
    m.cause = b > a ? "spills the row accumulators to local memory because the register cap is too tight"
                    : "exposes the load latency because too few rows are in flight per SM";
    m.category = "occupancy";
  }
  m.cause = prose_.fill(m.cause);
  return m;
}

Move Moves::stages(const KernelState &from) {
  Move m;
  m.key = "stages";
  m.after = from;
  if (python()) {
    unsigned b = neighbour(prose_.rng(), {1, 2, 3, 4, 5}, from.stages), a = from.stages;
    m.after.stages = b;
    m.name = "num_stages";
    if (b > a) {
      m.subject = "num_stages " + str(a) + " -> " + str(b) + " to pipeline the column loop";
      m.change = "num_stages " + str(a) + " -> " + str(b) +
                 " so the next tile's loads are in flight while this one "
                 "reduces.";
      m.expected = "the tile loads overlap the reduction";
      m.body = "Pipelining the column loop with " + str(b) +
               " stages hides the load latency of each tile behind the previous reduction.";
      m.cause = prose_.fill("{serialises} the tile loads behind one barrier per stage");
    } else {
      m.subject = "num_stages " + str(a) + " -> " + str(b) + ", fewer tiles in flight";
      m.change = "num_stages " + str(a) + " -> " + str(b) + " so fewer tiles are live in shared memory at once.";
      m.expected = "more programs resident per SM";
      m.body = "Fewer stages keep fewer tiles in shared memory, so more programs fit on each SM.";
      m.cause = "exposes the load latency because fewer tiles are in flight per program";
    }
  } else {
    unsigned b = neighbour(prose_.rng(), {1, 2, 4, 8}, from.stages), a = from.stages;
    m.after.stages = b;
    m.name = "UNROLL";
    m.subject = "UNROLL " + str(a) + " -> " + str(b) + " on the load loop";
    m.change =
        "UNROLL " + str(a) + " -> " + str(b) +
        (b > a ? " so more independent loads are in flight per thread." : " so fewer registers are live per thread.");
    m.expected = b > a ? "more loads in flight per thread" : "fewer live registers per thread";
    m.body = prose_.fill("Unrolling by " + str(b) + " gives each thread " + str(b) +
                         " outstanding loads, so the memory latency is {amortised} across them.");
    m.cause = "spills registers because every unrolled iteration keeps its own float4 live";
  }
  m.category = "pipelining";
  return m;
}

Move Moves::vec(const KernelState &from) {
  Move m;
  m.key = "vec";
  m.after = from;
  // Runs widen their loads; narrowing again is rare.
  std::vector<unsigned> values = {1, 2, 4};
  if (from.vec > 1 && !prose_.rng().chance(15)) values.erase(values.begin(), values.begin() + (from.vec == 4 ? 2 : 1));
  if (!python() && from.load_cache == "nc") values = {2, 4};
  if (!python() && from.load_cache == "ldg") values = {1};
  unsigned b = neighbour(prose_.rng(), values, from.vec), a = from.vec;
  if (b == a) b = a == 4 ? 2 : 4;
  m.after.vec = b;
  if (!python() && from.load_cache == "ldg") m.after.load_cache = ""; // __ldg is a scalar load
  std::string bits = str(32 * b);
  m.expected = b > a ? "fewer load instructions per row" : "fewer registers per thread";
  m.cause = b > a ? "gains nothing because the rows are already coalesced and bandwidth-bound"
                  : "cannot keep the memory pipe full because each thread issues " +
                        std::string(b == 1 ? "scalar loads" : "narrower loads");
  m.category = "vectorization";
  if (dsl_ == Dsl::Triton) {
    m.name = "multiple_of";
    m.subject = b > 1 ? prose_.fill("{vectorised} row loads: max_contiguous/multiple_of hints of " + str(b) +
                                    " so the loads compile to ld.global.v" + str(b) + ".b32")
                      : "drop the max_contiguous/multiple_of hints (scalar loads)";
    m.change = b > 1 ? prose_.fill("{vectorised} the row loads to " + bits +
                                   "-bit with max_contiguous/multiple_of hints of " + str(b) + ".")
                     : "Dropped the max_contiguous/multiple_of hints; the loads are scalar again.";
    m.body = b > 1 ? "The multiple_of hint lets the compiler prove " + str(4 * b) +
                         "-byte alignment, so it emits ld.global.v" + str(b) + ".b32 instead of scalar loads."
                   : "";
  } else if (dsl_ == Dsl::Gluon) {
    m.name = "BlockedLayout";
    m.subject = "BlockedLayout size_per_thread " + str(a) + " -> " + str(b);
    m.change = "BlockedLayout([" + str(b) + "], [32], [num_warps], [0]) so each thread owns " + str(b) +
               " contiguous elements (" + bits + "-bit loads).";
    m.body = "With " + str(b) + " contiguous elements per thread the layout lowers to " + bits +
             "-bit loads, so the row needs fewer load instructions.";
  } else {
    m.name = "VEC";
    m.subject = "VEC " + str(a) + " -> " + str(b) + " row loads";
    m.change = "VEC " + str(a) + " -> " + str(b) + " so each thread reads " + str(b) + " floats per load instruction.";
    m.body = "Reading " + str(b) +
             " floats per instruction cuts the load count per row, so the LSU pipe is no "
             "longer the limit.";
  }
  return m;
}

Move Moves::cache(const KernelState &from) {
  Move m;
  m.key = "cache";
  m.after = from;
  m.category = "memory_traffic";
  if (python()) {
    bool on = from.load_cache.empty();
    m.after.load_cache = on ? ".cg" : "";
    m.name = "cache_modifier";
    m.subject = on ? "cache_modifier=\".cg\" on the row loads" : "drop cache_modifier=\".cg\" from the row loads";
    m.change = on ? "cache_modifier .cg on the row loads so the streamed row bypasses L1."
                  : "Dropped the .cg cache_modifier; the row loads go through L1 again.";
    m.expected = on ? "less L1 pollution from the streamed row" : "L1 hits on the second pass";
    m.body = on ? "The row is read once per pass, so caching it in L1 only evicts the weights." : "";
    m.cause = "gains nothing because the row is read once and L1 was not the limit";
    return m;
  }
  if (from.load_cache.empty() && from.vec >= 2) {
    m.after.load_cache = "nc";
    std::string v = from.vec == 4 ? "v4" : "v2";
    m.name = "ld.global.nc." + v + ".f32";
    m.subject = "ld.global.nc." + v + ".f32 row loads through inline PTX";
    m.change = "Row loads through inline PTX ld.global.nc." + v + ".f32: one " + str(32 * from.vec) +
               "-bit non-coherent load per " + str(from.vec) + " floats.";
    m.expected = "fewer load instructions and no L1 allocation for the row";
    m.body = "The ld.global.nc." + v +
             ".f32 load goes through the read-only path, so the row no longer competes with the partials in L1.";
    m.cause = "gains nothing because the row is already read through the read-only path";
    return m;
  }
  if (from.load_cache.empty()) {
    m.after.load_cache = "ldg";
    m.name = "__ldg";
    m.subject = "__ldg read-only loads for the row";
    m.change = "__ldg loads route the row through the read-only data cache.";
    m.expected = "row loads through the read-only cache";
    m.body = "__ldg keeps the row out of L1, so the shared-memory partials keep their capacity.";
    m.cause = "gains nothing because the row is streamed once and the read-only cache misses anyway";
    return m;
  }
  m.after.load_cache = "";
  m.name = from.load_cache == "ldg" ? "__ldg" : "load_v" + str(from.vec);
  m.subject = "plain loads instead of " + m.name;
  m.change = "Plain global loads instead of " + m.name + " for the row.";
  m.expected = "simpler code at the same bandwidth";
  m.cause = "loses the read-only path, so the row competes with the partials in L1";
  return m;
}

Move Moves::evict(const KernelState &from) {
  Move m;
  m.key = "evict";
  m.after = from;
  m.after.evict_first = !from.evict_first;
  m.name = "evict_first";
  m.subject =
      from.evict_first ? "drop eviction_policy=\"evict_first\"" : "eviction_policy=\"evict_first\" on the row loads";
  m.change = from.evict_first ? "Dropped evict_first; the row loads use the default eviction policy."
                              : "evict_first on the row loads so the single-use row does not push reusable lines out "
                                "of L2.";
  m.expected = "the weights stay in L2";
  m.body = from.evict_first ? "" : "Each row is used once, so marking it evict_first keeps L2 for the next rows.";
  m.cause = "gains nothing because nothing else in the kernel reuses L2";
  m.category = "memory_traffic";
  return m;
}

Move Moves::store(const KernelState &from) {
  Move m;
  m.key = "store";
  m.after = from;
  m.after.streaming_store = !from.streaming_store;
  m.category = "memory_traffic";
  m.expected = "the output row stays out of L2";
  m.cause = "gains nothing because the output is read back right away by the next kernel";
  if (python()) {
    m.name = "cache_modifier";
    m.subject = from.streaming_store ? "drop the .cs streaming stores" : ".cs streaming stores for the output row";
    m.change = from.streaming_store ? "Dropped the .cs cache_modifier on the output stores."
                                    : "Streaming stores (cache_modifier .cs) so the output row does not evict the next "
                                      "input rows from L2.";
    m.body = from.streaming_store ? "" : "The output row is written once, so streaming it keeps L2 for the input rows.";
  } else {
    m.name = "__stcs";
    m.subject = from.streaming_store ? "plain stores instead of __stcs" : "__stcs streaming stores for the output";
    m.change = from.streaming_store
                   ? "Plain stores instead of __stcs for the output row."
                   : "__stcs streaming stores keep the output row out of L2 so the next rows' loads hit.";
    m.body = from.streaming_store ? "" : "__stcs marks the output lines evict-first, so the next rows stay in L2.";
  }
  return m;
}

std::vector<std::string> Moves::structural_keys(const KernelState &from, const std::vector<std::string> &done) const {
  std::vector<std::string> keys;
  auto open = [&](const char *k) { return std::find(done.begin(), done.end(), k) == done.end(); };
  if (python() && op_.kind != OpKind::Elementwise && !from.single_pass && open("single_pass"))
    keys.push_back("single_pass");
  if (!python() && from.load_cache != "nc" && open("ptx_loads")) keys.push_back("ptx_loads");
  if (!python() && op_.kind != OpKind::Elementwise && open("warp_shuffle")) keys.push_back("warp_shuffle");
  if (!from.persistent && from.rows_per_prog == 1 && open("persistent")) keys.push_back("persistent");
  if (op_.kind != OpKind::Elementwise && open("reciprocal")) keys.push_back("reciprocal");
  if (python() && !from.persistent && open("rows_per_prog") && !open("reciprocal")) keys.push_back("rows_per_prog");
  if (python() && (from.single_pass || op_.kind == OpKind::Elementwise) && open("mask_free"))
    keys.push_back("mask_free");
  return keys;
}

Move Moves::structural(const std::string &key, const KernelState &from) {
  Move m;
  m.key = key;
  m.after = from;
  std::string N = str(op_.n_cols);
  std::string ns = dsl_ == Dsl::Gluon ? "gl" : "tl";
  if (key == "single_pass") {
    m.after.single_pass = true;
    m.after.block = op_.n_cols;
    m.name = "BLOCK_SIZE";
    m.subject = "whole row in registers: BLOCK_SIZE " + str(from.block) + " -> " + N + ", one HBM read per row";
    m.change = "Single pass: BLOCK_SIZE " + N +
               " keeps the whole row in registers, so the row is read from HBM "
               "once instead of twice.";
    m.expected = "one HBM read per row instead of two";
    m.body = "The second pass re-read every row from HBM; holding the row in registers removes that read.";
    m.category = "memory_traffic";
  } else if (key == "ptx_loads") {
    m.after.vec = 4;
    m.after.load_cache = "nc";
    m.name = "ld.global.nc.v4.f32";
    m.subject = "ld.global.nc.v4.f32 row loads through inline PTX (VEC " + str(from.vec) + " -> 4)";
    m.change = "Row loads through inline PTX ld.global.nc.v4.f32 with VEC 4: one 128-bit non-coherent load per four "
               "floats.";
    m.expected = "a quarter of the load instructions, none of them allocating in L1";
    m.body = "The ld.global.nc.v4.f32 load reads four floats per instruction through the read-only path, so the LSU "
             "pipe is no longer the limit.";
    m.category = "vectorization";
  } else if (key == "warp_shuffle") {
    m.after.warp_shuffle = true;
    m.name = "__shfl_xor_sync";
    m.subject = "warp-shuffle reduction instead of the shared-memory tree";
    m.change = "__shfl_xor_sync warp reduction: THREADS / 32 partials through shared memory instead of THREADS, so "
               "the tree needs no barrier per level.";
    m.expected = "no __syncthreads per reduction level";
    m.body = "The shared-memory tree paid one barrier per level; the shuffles keep the partials in registers.";
    m.category = "reduction";
  } else if (key == "persistent") {
    m.after.persistent = true;
    m.name = python() ? "NUM_SMS" : "gridDim";
    m.subject = "persistent grid: one program per SM looping over rows";
    m.change = python() ? "Persistent grid: min(rows, NUM_SMS) programs stride over the rows instead of one program "
                          "per row."
                        : "Persistent grid: at most 132 * MIN_BLOCKS blocks stride over the rows with gridDim instead "
                          "of one block per row.";
    m.expected = "removes the partial last wave on the short-row shapes";
    m.body = "The 512-row shape left most SMs idle in the last wave, so striding programs over rows keeps every SM "
             "busy.";
    m.category = "scheduling";
  } else if (key == "reciprocal") {
    m.after.reciprocal = true;
    m.category = "math";
    if (op_.kind == OpKind::RowNorm) {
      m.name = python() ? ns + ".rsqrt" : "rsqrtf";
      m.subject = prose_.fill(m.name + " instead of 1 / sqrt for the {normaliser}");
      m.change = python() ? m.name + " instead of 1.0 / " + ns + ".sqrt: one special-function instruction per row."
                          : "rsqrtf instead of 1.0f / sqrtf: one special-function instruction per row.";
      m.expected = "one instruction per row instead of two";
      m.body = "";
    } else {
      m.name = "inv";
      m.subject = "reciprocal multiply instead of a per-element divide";
      m.change = "One reciprocal per row and a multiply per element instead of a divide per element.";
      m.expected = "no divide per element";
      m.body = "A divide costs several instructions per element; the reciprocal is computed once per row.";
    }
  } else if (key == "rows_per_prog") {
    m.after.rows_per_prog = 2;
    m.name = "ROWS_PER_PROG";
    m.subject = "ROWS_PER_PROG 1 -> 2 for the short-row shapes";
    m.change = "ROWS_PER_PROG 1 -> 2: two rows per program with a tail guard for odd row counts.";
    m.expected = "halves the programs of the short-row shapes";
    m.body = "The short-row shapes give each program little work; two rows per program halve the programs, so "
             "the per-program index math and reduction barriers are paid once per two rows.";
    m.category = "scheduling";
  } else if (key == "mask_free") {
    m.after.mask_free = true;
    m.name = "mask";
    m.subject = "drop the column mask, N is a multiple of the block";
    m.change = "Dropped the column mask: N_COLS = " + N + " is a multiple of BLOCK_SIZE, so every lane is in bounds.";
    m.expected = "";
    m.body = "";
    m.category = "tuning";
  }
  return m;
}

Move Moves::approximation(const KernelState &from) {
  Move m;
  m.key = "fast_math";
  m.after = from;
  m.after.fast_math = true;
  m.category = "math";
  if (op_.kind == OpKind::RowNorm) {
    m.name = "rsqrt_approx";
    m.subject = prose_.fill("bit-trick rsqrt approximation for the {normaliser}");
    m.change = "A bit-trick rsqrt (the 0x5f3759df guess and one Newton step) instead of the accurate reciprocal "
               "square root.";
    m.cause = "its relative error reaches 1.75e-3 after one Newton step, above the 1e-5 tolerance";
  } else if (op_.kind == OpKind::RowSoftmax) {
    m.name = "fast_expf";
    m.subject = "libdevice fast_expf for the exponentials";
    m.change = "libdevice fast_expf instead of the accurate exp.";
    m.cause =
        "its error grows with the argument, 2 + 1.173 * abs(x) ulp: about 25 ulp (up to 3e-6 relative) at x = -20, "
        "above the 1e-6 tolerance";
  } else {
    m.name = "tanh";
    m.subject = "tanh approximation of the activation";
    m.change = "The tanh approximation instead of the erf form of the activation.";
    m.cause = "its absolute error against the erf form reaches 4.7e-4 near x = -2.7, above the 1e-5 tolerance of "
              "the harness";
  }
  m.expected = "fewer special-function instructions per element";
  return m;
}

} // namespace otm::tracegen
