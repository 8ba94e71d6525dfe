// Compiler hints that restate what the compiler already derives: `cols =
// tl.max_contiguous(tl.multiple_of(cols, 8), 8)` on a `cols` bound, in the
// same block, to `tl.arange(0, N)` (or to `start + tl.arange(0, N)` for the
// `start` of a `for start in range(0, n, N)`). Such a hint can only weaken
// what is known, never widen a load (round 9); a value below 8 does narrow
// a 2-byte load (round 11), so it runs. One phase of code::find_inert_code.
// Internal to lib/support/code.
#pragma once

#include <vector>

#include "code/inert_code.hpp"
#include "code/source_reading.hpp"

namespace otm::code {

// Marks each live single-line statement of `statements` that re-binds a
// name to a restating hint as InertCode::Why::RestatedHint, owned by the
// name, and lists the name in `out.restated_hints`.
void mark_restated_hints(const Reading &r, const std::vector<Definition> &statements,
                         const std::vector<bool> &statement_dead, InertCode &out);

} // namespace otm::code
