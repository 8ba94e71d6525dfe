// The parameters of a file's JIT kernels (`@triton.jit`, `@gluon.jit`) and
// which of them the kernel's body never reads: `ROWS_PER_PROG:
// gl.constexpr` in a kernel whose persistent rewrite loops `for row in
// range(pid, M, num_programs)` and reads it nowhere (round 18: a gain
// credited to `ROWS_PER_PROG 1->4`, a constant the launch still passes).
// A value passed only to such a parameter computes nothing
// (code/inert_code.hpp asks this).
//
//   for (auto &k : code::jit_kernel_parameters(text)) k.name, k.unread, k.signature_end, k.shadowing
//   for (auto &u : code::unread_parameter_texts(text)) u.line, u.text, u.reads
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
  std::size_t end = 0;             // one past its last line
  // The parameters its body never rebinds (`P = ...`, `P += ...`, `for P
  // in`): every name P in the kernel is the parameter, never a module
  // constant of that name (J01: a module `BN = 64` beside an autotuned
  // kernel's `BN: tl.constexpr` is read by no line).
  std::set<std::string> shadowing;
};

std::vector<JitKernelParameters> jit_kernel_parameters(std::string_view python_source);

// Where the file names an unread parameter for nothing: the parameter's
// name in its kernel's signature, and each `P=value` keyword of a launch
// `KERNEL[grid](...)` that passes one (positional arguments are not
// mapped). `text` is the code as written (the name alone, or `P=value`);
// `reads` the names it reads (P, and the value's names for a keyword).
struct UnreadParameterText {
  std::size_t line = 0; // 0-based
  std::string text;
  std::vector<std::string> reads;
};
std::vector<UnreadParameterText> unread_parameter_texts(std::string_view python_source);

} // namespace otm::code
