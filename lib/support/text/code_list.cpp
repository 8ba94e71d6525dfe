#include "text/code_list.hpp"

namespace otm::text {

std::string quoted_code_list(const std::vector<std::string> &names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? " and " : ", ";
    out += "`" + names[i] + "`";
  }
  return out;
}

} // namespace otm::text
