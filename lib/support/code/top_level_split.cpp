#include "code/top_level_split.hpp"

namespace otm::code {

namespace {

std::string trimmed(std::string_view s) {
  auto b = s.find_first_not_of(" \t\n");
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(" \t\n") - b + 1));
}

} // namespace

std::vector<std::string> split_top_level(std::string_view text, char separator) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (quote) {
      if (ch == '\\')
        ++i;
      else if (ch == quote)
        quote = 0;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    } else if (ch == '(' || ch == '[' || ch == '{') {
      ++depth;
    } else if (ch == ')' || ch == ']' || ch == '}') {
      --depth;
    } else if (ch == separator && depth == 0) {
      out.push_back(trimmed(text.substr(from, i - from)));
      from = i + 1;
    }
  }
  if (auto last = trimmed(text.substr(std::min(from, text.size()))); !last.empty()) out.push_back(last);
  return out;
}

} // namespace otm::code
