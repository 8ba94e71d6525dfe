#include "code/capped_loops.hpp"

#include <charconv>
#include <optional>
#include <set>

#include "code/tile_constants.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::vector<CappedLoop> capped_loops(std::string_view source) {
  static const text::Regex loop(R"(^\s*for\b)");
  static const text::Regex capped(
      R"(\b(?:min|std::min|tl\.minimum|gl\.minimum)\s*\(\s*([A-Za-z_]\w*|\d+)\s*,\s*([A-Za-z_]\w*|\d+)\s*\))");
  // The one value the file gives `name`, or nullopt.
  auto value_of = [&](const std::string &operand) -> std::optional<long long> {
    long long v = 0;
    if (std::from_chars(operand.data(), operand.data() + operand.size(), v).ec == std::errc() &&
        operand.find_first_not_of("0123456789") == std::string::npos)
      return v;
    std::set<long long> given;
    for (const auto &[name, value] : tile_constants(source, text::Regex("^" + operand + "$"))) given.insert(value);
    if (given.size() == 1) return *given.begin();
    return std::nullopt;
  };
  std::vector<CappedLoop> out;
  for (auto line : text::split_lines(source)) {
    if (!loop.contains(line)) continue;
    auto m = capped.search(line);
    if (!m) continue;
    const std::string a((*m)[1]), b((*m)[2]);
    const auto va = value_of(a), vb = value_of(b);
    if (va.has_value() == vb.has_value()) continue; // two sizes or two constants: no cap
    const bool a_is_cap = va.has_value();
    const long long cap = a_is_cap ? *va : *vb;
    if (cap <= 1) continue;
    out.push_back({std::string(text::strip(line)), a_is_cap ? b : a, a_is_cap ? a : b, cap});
  }
  return out;
}

} // namespace otm::code
