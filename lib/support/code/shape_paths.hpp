// Which benchmarked shapes run code a change leaves as it was (issue 25,
// round 7: a three-pass loop moved into the `else` arm of a new
// `if SINGLE_PASS:`, credited with the gain of shapes that still take the
// `else` arm). Read from a Python kernel file (Triton, Gluon) before and
// after the change, for each shape of the workload:
//
//   * the launch: the launcher's grid and keyword arguments (constexprs,
//     num_warps, ...), evaluated with code::eval_python over the shape's
//     axes, the module's constants and the launcher's straight-line
//     assignments;
//   * the kernel body the JIT compiler sees for those constexprs: each
//     `if` whose condition they decide keeps only the arm taken (dedented),
//     comments and docstrings left out;
//   * everything else of the module that runs (helpers, imports,
//     constants something reads).
//
// A shape runs changed code unless all three are the same before and
// after. A shape axis is bound to the launcher's `a, b = x.shape` by name,
// or by position through the definition's variable axes. Anything it
// cannot read (no single JIT kernel launched by one launcher, embedded
// C/C++ source, an `elif` a constexpr decides) gives no answer. The launch
// is read by launch_reading.hpp; the kernel body and the answers here.
//
//   auto runs = code::shapes_running_changed_code(before, after, shapes, {"n_rows", "n_cols"});
//   runs[i]  // true: shape i runs changed code; false: the same code; nullopt: cannot tell
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace otm::code {

struct ShapeAxes {
  using Values = std::vector<std::pair<std::string, double>>;
  ShapeAxes() = default;
  ShapeAxes(Values workload_axes, Values constant_axes = {})
      : axes(std::move(workload_axes)), constants(std::move(constant_axes)) {}
  Values axes; // the workload's axes, in its order
  // The definition's constant axes under each name a launcher may give
  // them (`head_dim` and `D`): bound by name only, never by position.
  Values constants;
};

std::vector<std::optional<bool>> shapes_running_changed_code(std::string_view before, std::string_view after,
                                                             const std::vector<ShapeAxes> &shapes,
                                                             const std::vector<std::string> &var_axes);

// How many programs each shape's launch starts, before and after the
// change: the product of the launch grid, evaluated as above with the
// device's SM count bound to whatever the module or the launcher reads
// from `.multi_processor_count` (`sm_count`: the trace's product; nullopt
// leaves such a grid unknown). nullopt for a shape whose grid, before or
// after, is not a known number (a lambda grid, a block-bound name). A
// CUDA source's host launch (`dim3 grid(...)`, `<<<grid, ...>>>`) is read
// by code::cuda_blocks_launched.
struct ProgramCounts {
  double before = 0, after = 0;
};
std::vector<std::optional<ProgramCounts>> programs_per_shape(std::string_view before, std::string_view after,
                                                             const std::vector<ShapeAxes> &shapes,
                                                             const std::vector<std::string> &var_axes,
                                                             std::optional<long> sm_count);

// A loop of the launched kernel that steps by a constexpr over a bound the
// shape does not divide, whose loads index by the loop variable without a
// mask (or boundary check) that does: its last step reads past the end
// (round 12 and 13: an int4 GEMV's `for k0 in range(k_lo, k_hi, BLOCK_K)`
// with BLOCK_K=512 on K=11008, quoted as a working kernel). Read as the
// compiler sees the kernel for the shape's constexprs (an `if EVEN_K:` arm
// not taken is gone); the bound is a kernel parameter the loop's stop is
// computed from. nullopt for a shape with no such loop or that this
// reading cannot follow (CUDA, several launches, unknown values).
struct UnmaskedTail {
  std::string loop;                  // "for k0 in range(k_lo, k_hi, BLOCK_K)"
  std::vector<std::string> pointers; // the unmasked loads' pointers ("x_ptr", "w_ptr")
  std::string bound;                 // "K"
  long long bound_value = 0;         // 11008
  std::string step;                  // "BLOCK_K"
  long long step_value = 0;          // 512
};
std::vector<std::optional<UnmaskedTail>> unmasked_tails(std::string_view source, const std::vector<ShapeAxes> &shapes,
                                                        const std::vector<std::string> &var_axes);

// The shared memory a Gluon kernel allocates (`gl.allocate_shared_memory(
// dtype, [dims], layout)`) for each shape, its dims evaluated over the
// shape's launch as the compiler sees the kernel for its constexprs (an
// allocation in an arm not taken is gone). Round 14: a whole N=128256 fp16
// row staged in shared memory, 258 KB against 227 KB per block, quoted as
// a working kernel. The allocations whose size is known, summed (a lower
// bound when others are not); nullopt for a shape with none known or that
// this reading cannot follow (CUDA, several launches, unknown values).
struct SharedMemoryUse {
  std::vector<std::string> allocations; // "gl.allocate_shared_memory(gl.float16, [N_TILES, BLOCK_N], smem_layout)"
  long long bytes = 0;
};
std::vector<std::optional<SharedMemoryUse>> shared_memory_per_shape(std::string_view source,
                                                                    const std::vector<ShapeAxes> &shapes,
                                                                    const std::vector<std::string> &var_axes);

} // namespace otm::code
