// A list of code names as prose: "`a`, `b` and `c`". One wording for the
// drafter's refusals and the quality report's signals.
#pragma once

#include <string>
#include <vector>

namespace otm::text {

std::string quoted_code_list(const std::vector<std::string> &names);

} // namespace otm::text
