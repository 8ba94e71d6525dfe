#include "code/source_reading.hpp"

namespace otm::code {

int bracket_balance(std::string_view code) {
  int d = 0;
  for (char ch : code) {
    if (ch == '(' || ch == '[' || ch == '{') ++d;
    if (ch == ')' || ch == ']' || ch == '}') --d;
  }
  return d;
}

LineCode code_of(const SourceLine &l, Language language) {
  LineCode out;
  for (const auto &s : l.spans) {
    if (s.kind != SpanKind::Code) continue;
    auto part = l.text.substr(s.begin, s.end - s.begin);
    if (s.embedded || language == Language::CFamily)
      out.c.append(part), out.c += ' ';
    else
      out.python.append(part), out.python += ' ';
  }
  return out;
}

std::vector<std::string> code_in_place(std::string_view source, Language language) {
  std::vector<std::string> out;
  for (const auto &line : lex_source(source, language)) {
    std::string code(line.text);
    for (const auto &s : line.spans)
      if (s.kind != SpanKind::Code)
        for (std::size_t i = s.begin; i < s.end && i < code.size(); ++i) code[i] = ' ';
    out.push_back(std::move(code));
  }
  return out;
}

std::size_t indent_of(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

Reading read_source(std::string_view source, Language language) {
  Reading r;
  r.lexed = lex_source(source, language);
  const std::size_t n = r.lexed.size();
  r.code.resize(n);
  r.stmt_of.assign(n, 0);
  r.starts.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) r.code[i] = code_of(r.lexed[i], language);
  int depth = 0;
  bool continued = false;
  std::size_t current = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto &py = r.code[i].python;
    bool has_code = py.find_first_not_of(' ') != std::string::npos;
    if (depth <= 0 && !continued && has_code) {
      current = i;
      r.starts[i] = true;
      depth = 0;
    }
    r.stmt_of[i] = current;
    depth += bracket_balance(py);
    auto text = std::string_view(r.lexed[i].text);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    continued = has_code && text.ends_with("\\");
  }
  return r;
}

} // namespace otm::code
