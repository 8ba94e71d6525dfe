// Where a kernel reads a pointer it was given inside a loop over one axis
// of its work (rows, tokens, heads): `uint4 wv = ld_nc_v4(w + c);` in the
// body of `for (int row = ...)`, `tl.load(w_ptr + cols)` under `for r in
// tl.static_range(ROWS_PER_PROG)`, `c = tl.load(cos_ptr + ...)` under
// `for h0 in range(pid_h * BLOCK_H, ...)`. Each trip then loads it again,
// so a claim that the operand is loaded once and reused across that axis
// is not what the code does (round 19, H20: "reuses the weight vector
// across rows" with the weight load left in the row loop; kit 27, P11:
// "the cos/sin row is reused across several heads" with the cos/sin loads
// in the head loop).
//
// A loop is over the axis when its header matches `loop_header` (the
// caller's; for rows an identifier holding `row` or `tok`). Python: a read
// is a `load(` call of a `@jit` function naming the pointer; CUDA C (a
// Python string's source): the pointer, a parameter of a `__global__` or
// `__device__` function, indexed or offset (`w[`, `w +`).
//
//   if (auto r = code::pointer_read_in_axis_loop(text, {"w", "w_ptr"}, rows)) r->line, r->name, r->code
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"

namespace otm::code {

struct AxisLoopRead {
  std::size_t line = 0; // 0-based line of the read
  std::string name;     // the pointer it reads through
  std::string code;     // that line as written, stripped
};

// The first read of one of `pointers` inside a loop whose header
// `loop_header` finds; nullopt when there is none (or the file holds no
// device function this reader knows).
std::optional<AxisLoopRead> pointer_read_in_axis_loop(std::string_view source, const std::vector<std::string> &pointers,
                                                      const text::Regex &loop_header);

} // namespace otm::code
