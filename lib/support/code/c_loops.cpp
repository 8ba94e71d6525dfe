#include "code/c_loops.hpp"

#include "text/regex.hpp"

namespace otm::code {

CFunctionBody c_function_body(const ModuleOutline &outline, const CItem &item) {
  CFunctionBody b;
  for (std::size_t i = item.begin; i < item.end && i < outline.lines.size(); ++i) {
    b.text += outline.lines[i].c + "\n";
    b.line_of.resize(b.text.size(), i);
  }
  return b;
}

std::vector<CLoop> c_loops(std::string_view text, bool with_while) {
  static const text::Regex for_head(R"(\bfor\s*\()"), loop_head(R"(\b(?:for|while)\s*\()");
  const auto &head = with_while ? loop_head : for_head;
  std::vector<CLoop> out;
  for (auto m = head.search(text); m; m = head.search(text, m->end)) {
    int depth = 0;
    std::size_t close = m->end - 1;
    for (; close < text.size(); ++close)
      if (text[close] == '(')
        ++depth;
      else if (text[close] == ')' && --depth == 0)
        break;
    if (close >= text.size()) break;
    std::size_t begin = text.find_first_not_of(" \t\n", close + 1), end = begin;
    if (begin == std::string_view::npos) break;
    if (text[begin] == '{') {
      for (depth = 0; end < text.size(); ++end)
        if (text[end] == '{')
          ++depth;
        else if (text[end] == '}' && --depth == 0)
          break;
    } else {
      end = text.find(';', begin);
    }
    if (end == std::string_view::npos || end > text.size()) end = text.size();
    out.push_back({m->begin, close, begin, end});
  }
  return out;
}

} // namespace otm::code
