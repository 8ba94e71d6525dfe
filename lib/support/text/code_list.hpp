// Lists as prose: "a, b and c" (or "a, b or c"), and code names quoted so:
// "`a`, `b` and `c`". One wording for the drafters' texts, their refusals
// and the quality report's signals.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::text {

std::string prose_list(const std::vector<std::string> &items, std::string_view conjunction = "and");
std::string quoted_code_list(const std::vector<std::string> &names);

} // namespace otm::text
