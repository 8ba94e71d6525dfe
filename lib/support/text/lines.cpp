#include "text/lines.hpp"

namespace otm::text {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    out.push_back(text.substr(pos, (nl == std::string_view::npos ? text.size() : nl) - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

} // namespace otm::text
