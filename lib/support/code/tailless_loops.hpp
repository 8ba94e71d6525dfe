// C/C++/CUDA loops that walk a range in whole chunks and leave the rest:
// a `for` whose condition is `VAR + K <= BOUND` (K a literal above 1),
// with nothing after it in its function that takes the elements past the
// last whole chunk (no later loop or `if` comparing with `<` against a name
// of the bound). Such a kernel is right only for sizes a multiple of K
// (kit 33: `for (int v = ...; v + 8 <= min(v0 + BLOCK_V, v_hi); ...)` in a
// cross-entropy kernel, whose records said only "other sizes are
// untested"). Read from the C code of a Python kernel file (load_inline
// sources) or a C-family file.
//
//   for (auto &l : code::tailless_loops(file_text, code::Language::Python)) l.line, l.chunk
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "code/source_lexer.hpp"

namespace otm::code {

struct TaillessLoop {
  std::size_t line = 0; // 1-based
  std::string head;     // "for (int v = v0 + threadIdx.x * 8; v + 8 <= min(v0 + BLOCK_V, v_hi); v += THREADS * 8)"
  long long chunk = 0;  // 8
  std::string bound;    // "min(v0 + BLOCK_V, v_hi)"
};

std::vector<TaillessLoop> tailless_loops(std::string_view source, Language language);

} // namespace otm::code
