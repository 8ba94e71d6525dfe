// Where a kernel reads a pointer it was given inside its loop over rows
// (tokens): `uint4 wv = ld_nc_v4(w + c);` in the body of `for (int row =
// ...)`, `tl.load(w_ptr + cols)` under `for r in
// tl.static_range(ROWS_PER_PROG)`. Each row then loads it again, so a
// claim that the operand is loaded once and reused across rows is not what
// the code does (round 19, H20: "reuses the weight vector across rows" for
// ROWS_PER_BLOCK 1 -> 2 with the weight load left in the row loop).
//
// A loop is over rows when its header names an identifier holding `row` or
// `tok` (`row`, `n_rows`, `ROWS_PER_PROG`, `token`). Python: a read is a
// `load(` call of a `@jit` function naming the pointer; CUDA C (a Python
// string's source): the pointer, a parameter of a `__global__` or
// `__device__` function, indexed or offset (`w[`, `w +`).
//
//   if (auto r = code::pointer_read_in_row_loop(text, {"w", "w_ptr"})) r->line, r->name, r->code
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct RowLoopRead {
  std::size_t line = 0; // 0-based line of the read
  std::string name;     // the pointer it reads through
  std::string code;     // that line as written, stripped
};

// The first read of one of `pointers` inside a loop over rows; nullopt when
// there is none (or the file holds no device function this reader knows).
std::optional<RowLoopRead> pointer_read_in_row_loop(std::string_view source, const std::vector<std::string> &pointers);

} // namespace otm::code
