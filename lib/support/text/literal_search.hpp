// Literal substring search (memmem: glibc's vectorised two-way search,
// several times faster than std::string_view::find on prose, whose first
// byte is common). The literal prefilters of the leak shapes and the
// id and path scans use it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::text {

bool contains(std::string_view hay, std::string_view needle);
// True when `needles` is empty (nothing to rule a scan out with) or `hay`
// holds one of them.
bool contains_any(std::string_view hay, const std::vector<std::string> &needles);

} // namespace otm::text
