// The Triton and Gluon loads and stores of a block of offsets that take no
// mask: `tl.load(X + row * stride + cols)` where `cols = tl.arange(0,
// BLOCK_N)`. Such an access reads or writes past the tensor unless each
// size it tiles is a multiple of its block (kits 50 and 51: W02, X08, X12,
// a final kernel offered as a starting point with that assumption unsaid).
// An access with `mask=` or `boundary_check`, through a block pointer or a
// tensor descriptor, or of a scalar offset (`tl.load(Mean + row)`) is not
// one; nor is one in a branch whose condition names evenness
// (`if EVEN_N:`, `if DIVISIBLE:`), which the caller decides.
//
//   for (auto &a : code::unmasked_block_accesses(text)) a.line, a.call, a.blocks   // 0-based, "tl.load", {"BLOCK_N"}
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct UnmaskedAccess {
  std::size_t line = 0;
  std::string call; // "tl.load", "gl.store", ...
  // The block sizes of the offsets its function makes: the last argument
  // of each `tl.arange(0, BLOCK_N)` in it, as written ("BLOCK_N", "128").
  std::vector<std::string> blocks;
};
std::vector<UnmaskedAccess> unmasked_block_accesses(std::string_view python_source);

} // namespace otm::code
