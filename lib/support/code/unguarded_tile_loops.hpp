// C/C++/CUDA tile loops whose element index nothing checks against the
// size: a `for` bounded by a constant (`i < CHUNK`, the file gives CHUNK
// one value) inside a loop that walks a size in tiles of it (`blk < n`, a
// name with no value; `blk = blockIdx.x * CHUNK` or a stride that holds
// CHUNK), where neither loop's body mentions the size again (no `if (o <
// n)`, no `min(CHUNK, n - blk)`). The last tile of a size the constant does
// not divide then reads and writes past the tensor (kit 59, L07: a fused
// AdamW step over `numel = 123457` with `CHUNK = 1024`, "n is padded by the
// caching allocator"). The C-family counterpart of code::unmasked_block_accesses;
// read from a C-family file or the C code of a Python kernel file.
//
//   for (auto &l : code::unguarded_tile_loops(kernel_text, code::Language::CFamily)) l.block, l.size
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "code/source_lexer.hpp"

namespace otm::code {

struct UnguardedTileLoop {
  std::size_t line = 0; // 1-based, of the tile loop's `for`
  std::string head;     // "for (int i = threadIdx.x * VEC; i < CHUNK; i += THREADS * VEC)"
  std::string block;    // "CHUNK"
  std::string size;     // "n"
};

std::vector<UnguardedTileLoop> unguarded_tile_loops(std::string_view source, Language language);

} // namespace otm::code
