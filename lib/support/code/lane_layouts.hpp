// A per-lane register array filled by a vector load of consecutive
// elements per lane, then read as if each lane held every 32nd element:
// `v[4 * q + r]` from `ld_nc_v4(row + q * 128 + lane * 4)` (lane `l` holds
// elements `q*128 + 4l + r`), later labelled `int e = lane + 32 * i` for
// `v[i]`. Every id such a kernel returns names another element (rounds 17
// to 19: four top-k router reference kernels and strategies whose run's
// check compared only the weights). Read from the C code of a Python kernel
// file (load_inline sources) or a C-family file, one function at a time:
// the array must be filled from a vector's components (`raw.x`, ...) on
// lines whose load address steps `lane * K` (K at least 2), and read as
// `ARR[i]` on a line that labels it `lane + 32 * i` (or `warpSize`,
// `WARP_SIZE`).
//
//   if (auto m = code::blocked_fill_read_cyclically(file, code::Language::Python)) m->why();
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "code/source_lexer.hpp"

namespace otm::code {

struct LaneLayoutMismatch {
  std::size_t line = 0; // 1-based, the read
  std::string array;    // `v`
  std::string load;     // `lane * 4`, the fill's per-lane step
  std::string label;    // `lane + 32 * i`
  std::string why() const;
};

std::optional<LaneLayoutMismatch> blocked_fill_read_cyclically(std::string_view source, Language language);

} // namespace otm::code
