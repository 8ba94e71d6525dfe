// The bound of the loop that encloses a line, as the source spells it:
// `WIDTH` for a line under `for j in tl.static_range(WIDTH):` or
// `for (int j = 0; j < WIDTH; ++j)`. What a claim about how many terms a
// sum adds is checked against (kit 47, T09: "a long reduction" for a sum
// of 4 taps). Read by indentation: the nearest line above, indented less,
// that opens a loop; a loop with a start or a step (`range(0, K, BK)`),
// a `while`, or any other enclosing line gives nullopt: the reader does not
// guess a trip count.
//
//   if (auto bound = code::enclosing_loop_bound(source, sum.line)) ...   // "WIDTH"
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

std::optional<std::string> enclosing_loop_bound(std::string_view source, std::size_t line);

} // namespace otm::code
