#include "code/top_level_split.hpp"

namespace otm::code {

namespace {

std::string trimmed(std::string_view s) {
  auto b = s.find_first_not_of(" \t\n");
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(" \t\n") - b + 1));
}

// Calls `at(i, ch, depth)` for each character of `text` from `from` on
// that stands outside a string, `depth` counting the brackets open after
// it; stops when `at` returns true.
template <class At> void scan_outside_strings(std::string_view text, std::size_t from, At &&at) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = from; i < text.size(); ++i) {
    char ch = text[i];
    if (quote) {
      if (ch == '\\')
        ++i;
      else if (ch == quote)
        quote = 0;
      continue;
    }
    if (ch == '\'' || ch == '"') {
      quote = ch;
      continue;
    }
    if (ch == '(' || ch == '[' || ch == '{')
      ++depth;
    else if (ch == ')' || ch == ']' || ch == '}')
      --depth;
    if (at(i, ch, depth)) return;
  }
}

} // namespace

std::vector<std::string> split_top_level(std::string_view text, char separator) {
  std::vector<std::string> out;
  std::size_t from = 0;
  scan_outside_strings(text, 0, [&](std::size_t i, char ch, int depth) {
    if (ch == separator && depth == 0) {
      out.push_back(trimmed(text.substr(from, i - from)));
      from = i + 1;
    }
    return false;
  });
  if (auto last = trimmed(text.substr(std::min(from, text.size()))); !last.empty()) out.push_back(last);
  return out;
}

std::optional<std::size_t> matching_bracket(std::string_view text, std::size_t open) {
  std::optional<std::size_t> close;
  scan_outside_strings(text, open, [&](std::size_t i, char ch, int depth) {
    if ((ch == ')' || ch == ']' || ch == '}') && depth == 0) close = i;
    return close.has_value();
  });
  return close;
}

} // namespace otm::code
