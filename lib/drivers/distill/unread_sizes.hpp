// A kernel that does not read a benchmarked row right: it leaves part of
// it unread (a loop capped at a constant below the size, code::
// capped_loops, kit 57, N25; offsets that cover one tile of it with
// nothing walking past, code::single_tile_spans, kit 61, J20, J21), or its
// loop's last step reads past its end (a step that does not divide the
// size, with no mask on the loop's offsets, code::unmasked_loop_steps, kit
// 61, J15). The run reports such a shape as passing, so its check is not
// of this code: a reference kernel is refused for it, and so is a strategy
// whose kernel after the change does it.
//
//   if (auto why = size_left_unread(c, kernel_text)) refuse(field, *why);
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "distill/draft_context.hpp"

namespace otm::distill::drafting {

// Whether a code name (`BLOCK_N`, `n_cols`) is named for a benchmarked
// axis (`N`, `cols`): the axis itself or a name ending in `_<axis>`, any
// case; any name, when the operator varies one axis only (kit 57, N27:
// `BLOCK` over `numel`).
bool names_the_axis(const std::string &name, const std::string &axis, std::size_t n_axes);

// The refusal's reason, naming the loop or the offsets and the sizes past
// them; nullopt when the kernel reads every benchmarked size whole.
std::optional<std::string> size_left_unread(const Context &c, const std::string &kernel);

} // namespace otm::distill::drafting
