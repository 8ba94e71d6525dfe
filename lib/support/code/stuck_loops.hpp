// C/C++/CUDA loops that never advance: a `for` whose increment adds a
// compile-time zero (`n += WARPS * KEYS_PER_WARP` with `KEYS_PER_WARP =
// 32 / LANES_PER_KEY` and 64 lanes per key). Such a kernel spins, or never
// covers what it claims (round 13: two reference kernels of a decode
// trace, marked PASS, with 64 lanes per key in a 32-lane warp). Read from
// the C code of a Python kernel file (load_inline sources) or a C-family
// file, over code::c_integer_constants.
//
//   for (auto &l : code::stuck_loops(file_text, code::Language::Python)) l.line, l.step
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "code/source_lexer.hpp"

namespace otm::code {

struct StuckLoop {
  std::size_t line = 0; // 1-based
  std::string head;     // "for (int n = lo + ...; n < hi; n += WARPS * KEYS_PER_WARP)"
  std::string step;     // "WARPS * KEYS_PER_WARP"
};

std::vector<StuckLoop> stuck_loops(std::string_view source, Language language);

} // namespace otm::code
