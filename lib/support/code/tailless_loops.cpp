#include "code/tailless_loops.hpp"

#include <charconv>
#include <set>

#include "code/source_reading.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::vector<TaillessLoop> tailless_loops(std::string_view source, Language language) {
  std::vector<TaillessLoop> out;
  if (source.find("<=") == std::string_view::npos) return out;
  const auto lexed = lex_source(source, language);
  std::vector<std::string> lines(lexed.size());
  for (std::size_t i = 0; i < lexed.size(); ++i) lines[i] = code_of(lexed[i], language).c;
  // One-line heads: `for (init; VAR + K <= BOUND; step)`.
  static const text::Regex head(
      R"(\bfor\s*\([^;]*;\s*([A-Za-z_]\w*)\s*\+\s*(\d+)\s*<=\s*([^;]+);[^)]*(?:\([^()]*\)[^)]*)*\))");
  static const text::Regex function_start(R"(\b__(?:global|device)__\b)");
  static const text::Regex name(R"(\b[A-Za-z_]\w*\b)");
  static const text::Regex guard(R"(\b(?:for|while|if)\s*\(([^;{]*;)?([^;{]*<(?!=)[^;{]*))");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto m = head.search(lines[i]);
    if (!m) continue;
    long long k = 0;
    const auto digits = (*m)[2];
    if (std::from_chars(digits.data(), digits.data() + digits.size(), k).ec != std::errc() || k < 2) continue;
    const std::string bound(text::strip((*m)[3]));
    std::set<std::string> bound_names;
    for (const auto &n : name.find_all(bound))
      if (n[0] != "min" && n[0] != "max") bound_names.emplace(n[0]);
    // A tail: a later loop or `if` of the same function comparing with `<`
    // against a name of the bound.
    bool tail = false;
    for (std::size_t j = i + 1; j < lines.size() && !tail; ++j) {
      if (function_start.contains(lines[j])) break;
      for (const auto &g : guard.find_all(lines[j]))
        for (const auto &n : name.find_all(g[2]))
          if (bound_names.count(std::string(n[0]))) tail = true;
    }
    if (!tail) out.push_back({i + 1, std::string(text::strip((*m)[0])), k, bound});
  }
  return out;
}

} // namespace otm::code
