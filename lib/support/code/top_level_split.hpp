// A list of expressions split at the separators that stand outside every
// bracket and string: a Python call's arguments (`k[grid](x, BLOCK=4)`),
// a CUDA launch configuration (`<<<grid, 256>>>`), a `dim3(a, b)`. Each
// part is trimmed; an empty last part (a trailing comma) is dropped.
//
//   code::split_top_level("f(a, b), c", ',')  // {"f(a, b)", "c"}
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

std::vector<std::string> split_top_level(std::string_view text, char separator);

} // namespace otm::code
