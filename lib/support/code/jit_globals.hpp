// The module globals a Triton or Gluon JIT function reads that are not
// constexpr: `N_COLS = 4096` read inside `@triton.jit` / `@gluon.jit`.
// Triton (3.0 on) refuses to compile such a kernel ("Cannot access global
// variable N_COLS from within @jit'ed function"); only a global bound as
// `N_COLS = tl.constexpr(4096)` (or a module, a function, an import) may
// be read. A kernel file that reads one cannot run as it stands (issue 25,
// round 6: reference kernels reading `LOG2E` and `N_COLS`).
//
//   code::non_constexpr_globals_read_by_jit(
//       "N = 4\n@triton.jit\ndef k(x):\n    tl.store(x, N)\n") == {"N"}
//   ... "N = tl.constexpr(4)\n..."                              == {}
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct ModuleOutline;
struct PythonStatement;

// Whether a statement of an outline is a JIT function: `@triton.jit`,
// `@gluon.jit`, `@jit`, `@triton.jit(do_not_specialize=...)`; not
// `@torch.jit.script`.
bool is_jit_function(const ModuleOutline &outline, const PythonStatement &statement);

// Sorted; empty for a file with no JIT function.
std::vector<std::string> non_constexpr_globals_read_by_jit(std::string_view python_source);

} // namespace otm::code
