#include "code/stuck_loops.hpp"

#include "code/c_constants.hpp"
#include "code/source_reading.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::vector<StuckLoop> stuck_loops(std::string_view source, Language language) {
  std::vector<StuckLoop> out;
  const auto lexed = lex_source(source, language);
  std::vector<std::string> c_lines(lexed.size());
  std::string all;
  for (std::size_t i = 0; i < lexed.size(); ++i) {
    c_lines[i] = code_of(lexed[i], language).c;
    all += c_lines[i];
    all += '\n';
  }
  if (all.find("for") == std::string::npos) return out;
  const auto constants = c_integer_constants(all);
  if (constants.empty()) return out;
  // One-line heads only: `for (init; cond; VAR += STEP)`.
  static const text::Regex head(
      R"(\bfor\s*\(([^;()]*(?:\([^()]*\)[^;()]*)*);([^;]*);\s*([A-Za-z_]\w*)\s*(?:\+=|-=)\s*([^;)]+(?:\([^()]*\)[^;)]*)*)\))");
  for (std::size_t i = 0; i < c_lines.size(); ++i) {
    if (c_lines[i].empty()) continue;
    head.for_each_match(c_lines[i], [&](const text::Match &m) {
      const std::string step(text::strip(m[4]));
      auto v = evaluate_c_integer(step, constants);
      if (v && *v == 0) out.push_back({i + 1, std::string(text::strip(m[0])), step});
    });
  }
  return out;
}

} // namespace otm::code
