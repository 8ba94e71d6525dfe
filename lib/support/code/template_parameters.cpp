#include "code/template_parameters.hpp"

#include <algorithm>

#include "code/identifiers.hpp"
#include "code/source_reading.hpp"

namespace otm::code {

namespace {

bool names(std::string_view code, std::string_view name) {
  for (const auto &id : identifier_spans(code))
    if (code.substr(id.begin, id.end - id.begin) == name) return true;
  return false;
}

} // namespace

std::vector<UnreadTemplateParameter> unread_template_parameters(std::string_view c_source) {
  std::vector<UnreadTemplateParameter> out;
  std::string code;
  for (const auto &line : code_in_place(c_source, Language::CFamily)) code += line + '\n';
  auto line_of = [&](std::size_t at) {
    return static_cast<std::size_t>(std::count(code.begin(), code.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  };
  for (std::size_t at = code.find("template"); at != std::string::npos; at = code.find("template", at + 1)) {
    if ((at > 0 && is_identifier_char(code[at - 1])) || (at + 8 < code.size() && is_identifier_char(code[at + 8])))
      continue;
    std::size_t open = code.find_first_not_of(" \t\r\n", at + 8);
    if (open == std::string::npos || code[open] != '<') continue;
    // The parameter list: to the `>` closing this `<`.
    std::size_t close = open + 1;
    int angle = 1, paren = 0;
    std::vector<std::pair<std::size_t, std::size_t>> params; // [begin, end) of each
    std::size_t begin = close;
    for (; close < code.size() && angle > 0; ++close) {
      const char c = code[close];
      if (c == '(') ++paren;
      if (c == ')') --paren;
      if (paren == 0 && c == '<') ++angle;
      if (paren == 0 && c == '>') --angle;
      if ((angle == 0 || (angle == 1 && paren == 0 && c == ',')) && close > begin) {
        params.emplace_back(begin, close);
        begin = close + 1;
      }
    }
    if (angle != 0) break;
    // A function: the first `{` after a `)` at depth 0, before any `;`.
    std::size_t body = close;
    bool saw_call = false;
    int depth = 0;
    for (; body < code.size(); ++body) {
      const char c = code[body];
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) saw_call = true;
      if (depth == 0 && (c == ';' || c == '{')) break;
    }
    if (body >= code.size() || code[body] != '{' || !saw_call) continue;
    std::size_t end = body;
    for (int braces = 0; end < code.size(); ++end) {
      if (code[end] == '{') ++braces;
      if (code[end] == '}' && --braces == 0) break;
    }
    const std::string_view function = std::string_view(code).substr(close, end - close);
    for (const auto &[b, e] : params) {
      // Its name: the last identifier before a default (`int VEC = 4`).
      std::string_view decl = std::string_view(code).substr(b, e - b);
      decl = decl.substr(0, decl.find('='));
      const auto ids = identifier_spans(decl);
      if (ids.size() < 2) continue; // `typename` alone, or a bare name
      const auto &last = ids.back();
      const std::string name(decl.substr(last.begin, last.end - last.begin));
      if (!names(function, name)) out.push_back({line_of(b + last.begin), name});
    }
    at = end;
  }
  return out;
}

} // namespace otm::code
