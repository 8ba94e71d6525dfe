// A text's lines, split at '\n' without copying (a final line without a
// newline is a line; a trailing newline gives an empty last line). The gates
// and otm-explain read a packet's code this way, so they see the same lines.
#pragma once

#include <string_view>
#include <vector>

namespace otm::text {

std::vector<std::string_view> split_lines(std::string_view text);

} // namespace otm::text
