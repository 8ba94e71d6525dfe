// A list of expressions split at the separators that stand outside every
// bracket and string: a Python call's arguments (`k[grid](x, BLOCK=4)`),
// a CUDA launch configuration (`<<<grid, 256>>>`), a `dim3(a, b)`. Each
// part is trimmed; an empty last part (a trailing comma) is dropped.
//
//   code::split_top_level("f(a, b), c", ',')  // {"f(a, b)", "c"}
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

std::vector<std::string> split_top_level(std::string_view text, char separator);

// The index of the bracket that closes the one at `open`, strings skipped;
// nullopt when none does.
std::optional<std::size_t> matching_bracket(std::string_view text, std::size_t open);

} // namespace otm::code
