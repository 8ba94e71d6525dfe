#include "code/tile_constants.hpp"

#include <algorithm>
#include <charconv>

namespace otm::code {

std::vector<std::pair<std::string, long long>> tile_constants(std::string_view source, const text::Regex &is_tile) {
  // `NAME = 64`, `NAME: tl.constexpr = 64`, `constexpr int NAME = 64;`,
  // `#define NAME 64`, and `NAME=64` among a call's keywords: a whole
  // integer, not the start of an expression.
  static const text::Regex given(R"((?m)(?:#\s*define\s+([A-Za-z_]\w*)\s+\(?(\d+)\)?(?=\s*(?://.*)?$)|)"
                                 R"(\b([A-Za-z_]\w*)\s*(?::\s*[\w.]+\s*)?=(?!=)\s*(\d+)\s*(?=[,;)\]#]|//|$)))");
  std::vector<std::pair<std::string, long long>> out;
  given.for_each_match(source, [&](const text::Match &m) {
    const bool define = m.has(1);
    const std::string name(define ? m[1] : m[3]);
    const std::string_view digits = define ? m[2] : m[4];
    if (!is_tile.fullmatch(name)) return;
    long long value = 0;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), value).ec != std::errc()) return;
    std::pair<std::string, long long> e{name, value};
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(std::move(e));
  });
  return out;
}

std::vector<long long> values_given(std::string_view source, const std::string &name) {
  std::vector<long long> out;
  auto add = [&](long long v) {
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  for (const auto &[_, v] : tile_constants(source, text::Regex("^" + name + "$"))) add(v);
  text::Regex keyed("[\"']" + name + "[\"']\\s*:\\s*(\\d+)\\b");
  keyed.for_each_match(source, [&](const text::Match &m) {
    long long v = 0;
    const std::string_view d = m[1];
    if (std::from_chars(d.data(), d.data() + d.size(), v).ec == std::errc()) add(v);
  });
  return out;
}

} // namespace otm::code
