// The changes a generated run tries, with the words its producer would use
// for them: a parameter step (BLOCK_SIZE, num_warps, num_stages, vector
// width, cache modifiers, inline-PTX loads; their CUDA counterparts THREADS,
// MIN_BLOCKS, UNROLL, VEC, __ldg, ld.global.nc.v4.f32, __stcs) or a
// structural step (single pass, persistent grid, reciprocal, warp-shuffle
// reduction, dropped mask), each naming in its subject and change text what
// it changes in the code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "storegen/random.hpp"
#include "tracegen/kernel_source.hpp"
#include "tracegen/prose.hpp"

namespace otm::tracegen {

struct Move {
  std::string key;      // "block", "warps", ... or the structural move's name
  std::string name;     // the identifier the texts name (BLOCK_SIZE, num_warps, ld.global.nc.v4.f32, ...)
  std::string subject;  // without the "v<N>: " prefix and the measurement
  std::string change;   // optimization.action_description
  std::string expected; // optimization.expected_impact ("" for none)
  std::string body;     // one causal sentence for the commit body ("" for none)
  std::string cause;    // why it fails when it fails: a clause with a stated cause
  std::string category; // optimization.action_category
  KernelState after;
};

class Moves {
public:
  Moves(Dsl dsl, const OperatorSpec &op, Prose &prose) : dsl_(dsl), op_(op), prose_(prose) {}
  // A random parameter change of `from` (always changes the code).
  Move parameter(const KernelState &from);
  // The parameter change of `key` ("block", "warps", "stages", "vec",
  // "cache", "evict" or "store") from `from`.
  Move parameter(const std::string &key, const KernelState &from);
  // The structural moves still open from `from`, by key, in story order.
  std::vector<std::string> structural_keys(const KernelState &from, const std::vector<std::string> &done) const;
  Move structural(const std::string &key, const KernelState &from);
  // The accuracy-failing approximation of this operator.
  Move approximation(const KernelState &from);

private:
  Move block(const KernelState &from);
  Move warps(const KernelState &from);
  Move stages(const KernelState &from);
  Move vec(const KernelState &from);
  Move cache(const KernelState &from);
  Move evict(const KernelState &from);
  Move store(const KernelState &from);
  bool python() const { return dsl_ != Dsl::Cuda; }
  Dsl dsl_;
  OperatorSpec op_;
  Prose &prose_;
};

} // namespace otm::tracegen
