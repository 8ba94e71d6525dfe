// Which lines of the sibling file a drafted record quotes (spec distill.md
// §3 rule 2, §4.3). Both rules only select whole lines of the file, never
// edit them, so the snippet is verbatim by construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "distill/diff_reading.hpp"

namespace otm::distill {

// A strategy's (or an anti-strategy's) snippet: the hunks of a unified diff
// that carry the change its text claims. Rule, over the hunks that change a
// line that runs (diff_reading.hpp; a hunk of comments, docstrings, blank
// lines or version stamps never qualifies, nor the body of a function the
// diff adds and nothing calls):
//   1. the hunk whose running changed lines hold the most strong names of the
//      change text (`BLOCK_SIZE`, `num_warps`, `tl.reduce`, `.cs`), then the
//      most plain words of it, then the most running changed lines; ties go
//      to the earliest hunk;
//   2. then, for each strong name the diff's running changes hold that no
//      chosen hunk holds, the best hunk holding it, up to kMaxHunks in all.
// One hunk is quoted without its "@@" header; several are quoted in file
// order, each with its header. Each is quoted from kContextLines before its
// first running changed line to kContextLines after its last (a docstring or
// comment change at its edge is not the change); longer than
// kMaxSnippetLines, from kContextLines before its first running line that
// holds a name.
inline constexpr std::size_t kMaxSnippetLines = 60;
inline constexpr std::size_t kContextLines = 3;
inline constexpr std::size_t kMaxHunks = 3;

struct DiffSnippet {
  std::string text;
  std::size_t hunks_quoted = 0;
  std::vector<std::string> names; // strong change-text names the quoted lines change
};
std::optional<DiffSnippet> choose_diff_hunks(const DiffReading &diff, std::string_view change_text);

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
