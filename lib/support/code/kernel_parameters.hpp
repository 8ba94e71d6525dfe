// The parameters of a file's JIT kernels (`@triton.jit`, `@gluon.jit`) and
// which of them the kernel's body never reads: `ROWS_PER_PROG:
// gl.constexpr` in a kernel whose persistent rewrite loops `for row in
// range(pid, M, num_programs)` and reads it nowhere (round 18: a gain
// credited to `ROWS_PER_PROG 1->4`, a constant the launch still passes).
// A value passed only to such a parameter computes nothing
// (code/inert_code.hpp asks this).
//
//   for (auto &k : code::jit_kernel_parameters(text)) k.name, k.unread, k.signature_end
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct JitKernelParameters {
  std::string name;                // `_rmsnorm_fwd_kernel`
  std::vector<std::string> params; // in order
  std::set<std::string> unread;    // the ones no body line reads
  std::size_t header = 0;          // the `def` line (0-based)
  std::size_t signature_end = 0;   // one past the line closing the parameter list
};

std::vector<JitKernelParameters> jit_kernel_parameters(std::string_view python_source);

} // namespace otm::code
