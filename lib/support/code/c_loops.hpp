// The loops of one C/CUDA function an outline found (a `__global__` or
// `__device__` function of a load_inline source): its code as one text with
// the file line each byte came from, and each `for` / `while` loop's header
// and body within it. What the readers that ask "is this read inside a
// loop" share (code::pointer_read_in_axis_loop, code::pointer_read_in_two_passes).
//
//   auto body = code::c_function_body(outline, item);
//   for (const auto &loop : code::c_loops(body.text)) loop.header, loop.begin, loop.end
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "code/module_outline.hpp"

namespace otm::code {

struct CFunctionBody {
  std::string text;                 // the item's C code, one line per file line
  std::vector<std::size_t> line_of; // the 0-based file line of each byte of text
};

struct CLoop {
  std::size_t head = 0;       // where `for` / `while` starts in the text
  std::size_t header_end = 0; // its closing `)`
  std::size_t begin = 0;      // the body: a braced block from its `{`, or one statement
  std::size_t end = 0;        // the body's closing `}` or `;` (the text's end when unclosed)
};

CFunctionBody c_function_body(const ModuleOutline &outline, const CItem &item);

// The loops of `text` in the order their headers appear: an outer loop
// before the loops it holds; `for` loops alone when `with_while` is false.
std::vector<CLoop> c_loops(std::string_view text, bool with_while = true);

} // namespace otm::code
