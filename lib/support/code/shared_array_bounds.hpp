// CUDA `__shared__` arrays indexed past their extent: `s_cos[ts][d + 1]`
// with `__shared__ float s_cos[TOKENS_PER_BLOCK][HALF]` (HALF 64) and
// `const int d = lane * 8 + 2 * j` over 32 lanes and j < 4 reaches 255
// (round 17: two RoPE reference kernels mapping all 32 lanes onto a
// 64-wide half head, which their run's check passed). Read from the C code
// of a Python kernel file (load_inline sources) or a C-family file, over
// code::c_integer_constants; an index is judged only when every name in it
// has a range this reading knows:
//   - a loop variable `for (int j = A; j < B; ...)` or `<= B` (the first
//     comparison of a `&&` chain), from A (0 when A is unknown) to B - 1;
//   - a variable declared from an expression over known ranges, or as
//     `x & C` (0..C) or `x % C` (0..C-1);
// and the index is an expression of + - * / over them (its extremes are
// at the corners of the ranges). An index any `if` around it (an early
// `break`/`continue`/`return` too) names a variable of is guarded, and not
// judged.
//
//   for (auto &o : code::shared_array_overruns(file_text, code::Language::Python)) o.why();
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "code/source_lexer.hpp"

namespace otm::code {

struct SharedArrayOverrun {
  std::size_t line = 0;  // 1-based
  std::string array;     // `s_cos`
  std::string extent;    // `HALF`, as declared
  long long size = 0;    // 64
  std::string index;     // `d + 1`
  long long reaches = 0; // 255
  // "indexes the __shared__ array `s_cos` with `d + 1`, which reaches 255
  // where it holds 64 (`HALF`), and no condition guards it"
  std::string why() const;
};

std::vector<SharedArrayOverrun> shared_array_overruns(std::string_view source, Language language);

// The `__shared__` arrays a kernel fills from one of `pointers` (a store
// into the array whose value names the pointer: `s_bias[i] =
// __bfloat162float(__ldg(bias + col0 + i))`), each with the first such line
// and the pointer: the operand lives in shared memory, not in registers
// (kit 30/32: "several rows reuse the bias registers" on such a kernel).
struct SharedStaging {
  std::size_t line = 0; // 1-based
  std::string array;    // `s_bias`
  std::string pointer;  // `bias`
};
std::vector<SharedStaging> shared_stagings(std::string_view source, Language language,
                                           const std::vector<std::string> &pointers);

} // namespace otm::code
