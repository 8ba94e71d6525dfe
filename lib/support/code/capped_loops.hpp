// Loops whose bound caps a size at a constant: `c < min(N, BLOCK_N)` with
// `#define BLOCK_N 2048`, `range(0, min(n_cols, MAX_COLS), BLOCK)`. Such a
// loop visits the first `cap` elements and leaves the rest of a longer row
// unread (kit 57, N25: a row-wise argmax over N >= 4096 that scans the first
// 2048 columns). The cap is a literal or a name the file gives one integer
// value (code::tile_constants); the size is the other operand, a name
// without one.
//
//   for (const auto &l : code::capped_loops(kernel_text))
//     if (benchmarked N > l.cap) ...   // l.size == "N", l.cap_name == "BLOCK_N"
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct CappedLoop {
  std::string head;     // the loop's line, stripped
  std::string size;     // the capped operand (`N`)
  std::string cap_name; // the cap as written (`BLOCK_N`, `2048`)
  long long cap = 0;    // its value
};

std::vector<CappedLoop> capped_loops(std::string_view source);

} // namespace otm::code
