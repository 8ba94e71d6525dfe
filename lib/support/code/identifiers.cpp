#include "code/identifiers.hpp"

namespace otm::code {

std::vector<IdentifierSpan> identifier_spans(std::string_view code) {
  std::vector<IdentifierSpan> out;
  for (std::size_t i = 0; i < code.size();) {
    if (!is_identifier_start(code[i]) || (i > 0 && is_identifier_char(code[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < code.size() && is_identifier_char(code[j])) ++j;
    out.push_back({i, j});
    i = j;
  }
  return out;
}

} // namespace otm::code
