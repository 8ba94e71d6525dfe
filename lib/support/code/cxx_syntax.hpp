// Text a C, C++ or CUDA file's code cannot hold: `%%`, which no operator
// or digraph spells (`%:` and `%>` are digraphs), outside string literals
// and comments (inline PTX writes `%%` in its asm strings). Kits 52 and 55,
// Y11, P22: `TORCH_CHECK(N %% kVec == 0, ...)` in a kernel.cu quoted as a
// reference kernel that builds. A Python file's embedded source is left
// alone: a %-formatted string writes `%%` for `%`.
//
//   if (auto line = code::line_not_cxx(text)) ...   // the first such line, trimmed
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

std::optional<std::string> line_not_cxx(std::string_view cfamily_source);

} // namespace otm::code
