// A Gluon kernel that expands a 1-D tensor laid out by a BlockedLayout to
// 2-D (`tok[:, None]`, `gl.expand_dims(tok, 1)`): Gluon's expand_dims takes
// only a tensor whose layout is a SliceLayout of the 2-D parent, so such a
// kernel does not compile (stop 44: a reference kernel whose `tok =
// pid * BLOCK_S + gl.arange(0, BLOCK_S, layout=BL1)` with `BL1 =
// gl.BlockedLayout(size_per_thread=[VEC], ...)` is then read as
// `tok[:, None]`). Read line by line: a tensor is one a line assigns from a
// `gl.arange(..., layout=L)` where L is a name bound to a one-dimensional
// BlockedLayout; a layout written inline, or any other, is not judged.
//
//   code::expand_of_an_unsliced_tensor(
//       "BL1: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])\n"
//       "r = gl.arange(0, 64, layout=BL1)\n"
//       "x = gl.load(p + r[:, None])\n")   // {tensor "r", layout "BL1", use "r[:, None]"}
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

struct UnslicedExpand {
  std::string tensor; // `tok`
  std::string layout; // `BL1`
  std::string use;    // `tok[:, None]`
  // "expands `tok` (a gl.arange in the one-dimensional BlockedLayout `BL1`)
  // with `tok[:, None]`, but Gluon's expand_dims takes only a SliceLayout:
  // it cannot compile"
  std::string why() const;
};

std::optional<UnslicedExpand> expand_of_an_unsliced_tensor(std::string_view python_source);

} // namespace otm::code
