#include "text/code_list.hpp"

namespace otm::text {

std::string prose_list(const std::vector<std::string> &items, std::string_view conjunction) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += i + 1 == items.size() ? " " + std::string(conjunction) + " " : ", ";
    out += items[i];
  }
  return out;
}

std::string quoted_code_list(const std::vector<std::string> &names) {
  std::vector<std::string> quoted;
  for (const auto &n : names) quoted.push_back("`" + n + "`");
  return prose_list(quoted);
}

} // namespace otm::text
