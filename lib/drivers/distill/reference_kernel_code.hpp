// Which lines of a kernel file a reference-kernel record quotes (spec
// distill.md §4.3): the entry point and its launch. Both rules only select
// whole lines of the file, never edit them, so the snippet is verbatim by
// construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace otm::distill {

// Reference kernel: the entry-point function of a kernel file.
// Rule: among Python functions carrying a JIT/kernel decorator (a decorator
// line whose name contains "jit" or "kernel"), the one whose name is used
// most often outside its own definition (the one the rest calls or
// launches); ties go to the earliest. The snippet is its decorator lines,
// its def and its body (up to the next non-blank line indented no deeper
// than the def), trailing blank lines dropped. A file with no decorated
// function but C/C++/CUDA source in a Python string (load_inline) or of its
// own: its first `__global__` function, from its first line to its closing
// brace (braces counted in code only, by the shared lexer). Otherwise there
// is no entry point.
struct EntryFunction {
  std::string name;
  std::string text;
  bool cuda = false; // a __global__ function of C-family source
};
std::optional<EntryFunction> choose_entry_function(std::string_view source);

// The launch configuration of the entry point, as whole lines of the file:
//   Python DSLs: the module-level one-line assignments the entry function or
//     its launcher names (`N_COLS = 4096`), then every top-level function
//     whose body launches it (`kernel[grid](..., num_warps=8)`);
//   CUDA: the host function holding `name<<<grid, block>>>`.
// nullopt when nothing in the file launches it.
std::optional<std::string> choose_launch(std::string_view source, const EntryFunction &entry);

} // namespace otm::distill
