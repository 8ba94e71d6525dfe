#include "code/loop_bounds.hpp"

#include <vector>

#include "code/source_reading.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"

namespace otm::code {

std::optional<std::string> enclosing_loop_bound(std::string_view source, std::size_t line) {
  static const text::Regex python_loop(
      R"(^\s*for\s+\w+\s+in\s+(?:tl\.)?(?:static_range|range)\(\s*([A-Za-z_]\w*|\d+)\s*\)\s*:)");
  static const text::Regex c_loop(
      R"(^\s*(?:#pragma\s+unroll\s*)?for\s*\(\s*(?:int|unsigned|size_t|auto)?\s*(\w+)\s*=\s*0\s*;\s*(\w+)\s*<\s*)"
      R"(([A-Za-z_]\w*|\d+)\s*;\s*(?:\+\+\s*(\w+)|(\w+)\s*\+\+|(\w+)\s*\+=\s*1)\s*\))");
  const auto lines = text::split_lines(source);
  if (line >= lines.size()) return std::nullopt;
  std::size_t indent = indent_of(lines[line]);
  for (std::size_t i = line; i-- > 0;) {
    const auto l = lines[i];
    if (l.find_first_not_of(" \t") == std::string_view::npos) continue;
    const auto at = indent_of(l);
    if (at >= indent) continue;
    // A brace alone, a `#pragma unroll` or a comment line above a C body
    // opens nothing of its own.
    const auto code = l.substr(at);
    if (code.starts_with("{") || code.starts_with("#pragma") || code.starts_with("//")) continue;
    if (auto m = python_loop.search(l)) return std::string((*m)[1]);
    if (auto m = c_loop.search(l); m && (*m)[1] == (*m)[2]) return std::string((*m)[3]);
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace otm::code
