// Offsets that cover one tile of a size and nothing walks past it:
// `cols = tl.arange(0, BLOCK_N)` masked `cols < N`, with no loop of the
// kernel naming `N` or `BLOCK_N`. Such a kernel reads the first `BLOCK_N`
// elements of a longer row and leaves the rest unread (kit 61, J20 and
// J21: a "whole row in one tile" argmax with BLOCK_N = 4096 on rows of
// 32000 and 151936 that the run reports as passing). The tile's values are
// those the file gives its name (code::tile_constants, and `"BLOCK_N":
// 4096` in a dict or a `triton.Config`); a tile the file gives no integer
// value is left out. Python kernels only (Triton and Gluon `arange`).
//
//   for (const auto &t : code::single_tile_spans(kernel_text))
//     if (benchmarked N > t.largest) ...   // t.size == "N", t.block == "BLOCK_N"
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct SingleTileSpan {
  std::string offsets;   // the line that makes them, stripped (`cols = tl.arange(0, BLOCK_N)`)
  std::string block;     // `BLOCK_N`
  std::string size;      // the mask's bound (`N`)
  long long largest = 0; // the largest value the file gives `block`
};

std::vector<SingleTileSpan> single_tile_spans(std::string_view source);

} // namespace otm::code
