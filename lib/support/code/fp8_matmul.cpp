#include "code/fp8_matmul.hpp"

#include <map>

#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::optional<std::string> fp8_dot(std::string_view source) {
  static const text::Regex fp8(R"(\b(?:float8_?e[45]m[23]\w*|float8e[45]\w*|fp8e[45]\w*)\b)");
  if (!fp8.contains(source)) return std::nullopt;
  static const text::Regex load(R"(^\s*([A-Za-z_]\w*)\s*=\s*(?:tl|gl)\.load\s*\()");
  static const text::Regex assignment(R"(^\s*([A-Za-z_]\w*)\s*=(?!=))");
  static const text::Regex dot(R"(\b(?:tl|gl)\.dot\s*\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*[,)])");
  std::map<std::string, bool> raw_load; // name -> last bound by a load kept as stored
  for (auto line : text::split_lines(source)) {
    if (auto d = dot.search(line)) {
      auto a = raw_load.find(std::string((*d)[1])), b = raw_load.find(std::string((*d)[2]));
      if (a != raw_load.end() && a->second && b != raw_load.end() && b->second)
        return std::string(text::strip(std::string_view(line).substr(d->begin, d->end - d->begin)));
    }
    if (auto m = load.search(line))
      raw_load[std::string((*m)[1])] = line.find(".to(") == std::string_view::npos;
    else if (auto m2 = assignment.search(line))
      raw_load[std::string((*m2)[1])] = false;
  }
  return std::nullopt;
}

} // namespace otm::code
