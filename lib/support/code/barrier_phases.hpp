// A Gluon/Triton kernel whose mbarrier wait phase starts again with every
// tile of a persistent loop while the barrier is initialised once before
// it: `phase = ((kt - k_lo) // NUM_STAGES) & 1` inside `for kt in
// range(k_lo, k_hi)` inside `for tile_id in range(pid, num_tiles,
// NUM_SMS)`. A barrier's phase flips on every completion for the kernel's
// whole life; when a tile completes a stage an odd number of times, the
// next tile's first wait on it sees the parity it is waiting for already
// and returns before the copy lands (round 17: two block-scaled FP8 GEMM
// reference kernels, K = 1536 in 128-wide tiles over 4 stages, that the
// run's check passed). Correct kernels carry a counter across tiles (`it
// += 1`, `phase ^= 1`), derive the phase from the tile loop's variable, or
// initialise the barriers inside the tile loop; none of those is flagged.
//
// Read line by line from each JIT function's body: the loops by
// indentation, the names each plain assignment reads, the augmented ones.
// The phase is judged only when it is an expression over names; a phase
// read through a helper call is followed as far as its arguments.
//
//   if (auto r = code::barrier_phase_restarted_per_tile(source)) r->why();
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

struct PhaseRestart {
  std::string barrier;   // `ready`
  std::string phase;     // `((kt - k_lo) // NUM_STAGES) & 1`, as the wait (or its assignment) writes it
  std::string tile_loop; // `for tile_id in range(gl.program_id(0), num_tiles, NUM_SMS):`
  // "waits on `ready` with the phase `...`, which starts again with every
  // iteration of `for tile_id in ...` while `ready` is initialised once
  // before that loop: ..."
  std::string why() const;
};

std::optional<PhaseRestart> barrier_phase_restarted_per_tile(std::string_view python_source);

} // namespace otm::code
