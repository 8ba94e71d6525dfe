#include "text/sentences.hpp"

#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::text {

std::vector<std::string> sentences(std::string_view text) {
  static const Regex boundary("(?<!\\b[eE]\\.[gG]\\.)(?<!\\b[iI]\\.[eE]\\.)(?<!\\b[vV][sS]\\.)(?<!\\b[cC][fF]\\.)"
                              "(?<!\\b[aA][pP][pP][rR][oO][xX]\\.)(?<=[.!?])\\s+"
                              // A line that opens with a field label ("Rationale:",
                              // "Shapes (us):") starts a sentence of its own.
                              "|[ \\t]*\\r?\\n\\s*(?=[A-Z][A-Za-z0-9 ()/_-]{0,40}:\\s)");
  std::vector<std::string> out;
  std::string_view rest = text;
  while (true) {
    auto [head, tail] = boundary.split_once(rest);
    auto s = strip(head);
    if (!s.empty()) out.emplace_back(s);
    if (!tail) break;
    rest = *tail;
  }
  return out;
}

} // namespace otm::text
