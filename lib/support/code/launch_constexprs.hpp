// The compile-time parameters of a Python JIT kernel that a launch leaves
// unsupplied: `BLOCK_N: tl.constexpr` with no default, which the launch
// `kernel[grid](...)` passes neither by keyword nor by position, and which
// no `@triton.autotune` config or `@triton.heuristics` of that kernel
// names (its configs may be a module list: a quoted key anywhere in the
// file counts when the kernel is so decorated). Such a kernel cannot launch as written (kit 48's U14 and kit 46's
// S29: the autotune decorator sat on a helper, `_silu`, and the kernel's
// `BLOCK_N` came from nowhere). A launch with `*args`/`**kwargs` is not
// judged; a file whose kernels no launch names gives nothing.
//
//   for (const auto &u : code::unsupplied_constexprs(text)) u.kernel, u.parameter, u.line
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct UnsuppliedConstexpr {
  std::string kernel, parameter;
  std::size_t line = 0; // 0-based line of the launch that leaves it out
};

std::vector<UnsuppliedConstexpr> unsupplied_constexprs(std::string_view python_source);

// Whether a unified diff of the file is what left `u` unsupplied: it takes
// out a line passing the parameter by keyword (`BLOCK_N=64`), or brings in
// an autotune or heuristics decorator (which may sit on the wrong
// function). A later change that inherits the state did not cause it.
bool diff_leaves_it_unsupplied(std::string_view diff, const UnsuppliedConstexpr &u);

// "the launch of `_k` supplies its constexpr `BLOCK_N` by neither keyword,
// position, default, nor an autotune config or heuristic on that kernel:
// it cannot launch": the ledger's words, for the caller to end.
std::string why_it_cannot_launch(const UnsuppliedConstexpr &u);

} // namespace otm::code
