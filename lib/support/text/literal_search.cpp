#include "text/literal_search.hpp"

#include <string.h>

#include <algorithm>

namespace otm::text {

bool contains(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  return ::memmem(hay.data(), hay.size(), needle.data(), needle.size()) != nullptr;
}

bool contains_any(std::string_view hay, const std::vector<std::string> &needles) {
  return needles.empty() ||
         std::any_of(needles.begin(), needles.end(), [&](const std::string &n) { return contains(hay, n); });
}

} // namespace otm::text
