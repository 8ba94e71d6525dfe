// Code scrubbing (spec scrubbing.md §5) with a small Python lexer instead of
// the reference's regexes: a '#' inside a string does not hide a later real
// comment, '//' (floor division in Python) is never a comment in code, and
// only docstrings (a triple-quoted string standing alone as a statement) are
// scrubbed as prose; other triple-quoted strings are code (e.g. embedded
// CUDA sources), where only their own // and /* */ comments are scrubbed.
#include "scrub/scrubber.hpp"

#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::scrub {

namespace {

struct LexState {
  enum Mode { Code, Docstring, CodeString } mode = Code;
  char quote = '"';
};

bool docstring_position(std::string_view before) {
  // Only whitespace and a string prefix (r, u, b, f in any case) before the quotes.
  std::size_t end = before.size();
  while (end > 0 && std::string_view("rRuUbBfF").find(before[end - 1]) != std::string_view::npos) --end;
  return text::strip(before.substr(0, end)).empty();
}

// Comments inside an embedded (non-Python) source string.
std::string embedded_comments(Scrubber &s, std::string_view seg) {
  static const text::Regex block(R"((?s)/\*.*?\*/)");
  std::string t = block.replace(seg, [&](const text::Match &m) { return s.comment(m[0]); });
  auto p = t.find("//");
  if (p == std::string::npos) return t;
  return t.substr(0, p) + s.comment(std::string_view(t).substr(p));
}

// Lexes one line, appending the scrubbed line to `out` when `emit` (with
// emit false only the state advances, so no label is allocated).
void lex_line(Scrubber &s, std::string_view line, LexState &st, bool emit, std::string &out) {
  std::size_t i = 0, n = line.size();
  while (i < n) {
    if (st.mode != LexState::Code) {
      std::string closing(3, st.quote);
      auto close = line.find(closing, i);
      std::size_t end = close == std::string_view::npos ? n : close;
      auto seg = line.substr(i, end - i);
      if (emit) out += st.mode == LexState::Docstring ? s.comment(seg) : embedded_comments(s, seg);
      if (close == std::string_view::npos) return;
      if (emit) out += closing;
      i = close + 3;
      st.mode = LexState::Code;
      continue;
    }
    char c = line[i];
    if (c == '#') {
      if (emit) out += s.comment(line.substr(i));
      return;
    }
    if (c == '\'' || c == '"') {
      if (line.substr(i, 3) == std::string(3, c)) {
        st.mode = docstring_position(line.substr(0, i)) ? LexState::Docstring : LexState::CodeString;
        st.quote = c;
        if (emit) out += line.substr(i, 3);
        i += 3;
        continue;
      }
      std::size_t j = i + 1;
      while (j < n && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      if (emit) out += line.substr(i, j - i);
      i = j;
      continue;
    }
    if (emit) out.push_back(c);
    ++i;
  }
}

template <typename F> void for_each_line(std::string_view text, F &&f) {
  std::size_t pos = 0;
  while (true) {
    auto nl = text.find('\n', pos);
    f(text.substr(pos, (nl == std::string_view::npos ? text.size() : nl) - pos), nl != std::string_view::npos);
    if (nl == std::string_view::npos) return;
    pos = nl + 1;
  }
}

} // namespace

std::string Scrubber::code_lines(std::string_view text, bool diff) {
  std::string out;
  out.reserve(text.size());
  LexState plain, old_side, new_side;
  bool in_hunk = false;
  for_each_line(text, [&](std::string_view line, bool newline) {
    if (!diff) {
      lex_line(*this, line, plain, true, out);
    } else if (line.starts_with("@@")) {
      // A hunk starts in an unknown lexical state; assume code. The header's
      // trailing function context is one line of code.
      in_hunk = true;
      old_side = new_side = LexState{};
      auto close = line.find("@@", 2);
      if (close == std::string_view::npos) {
        out += line;
      } else {
        out += line.substr(0, close + 2);
        LexState ctx;
        lex_line(*this, line.substr(close + 2), ctx, true, out);
      }
    } else if (in_hunk && !line.empty() && (line[0] == ' ' || line[0] == '+' || line[0] == '-')) {
      out.push_back(line[0]);
      auto body = line.substr(1);
      if (line[0] == '-') {
        lex_line(*this, body, old_side, true, out);
      } else {
        lex_line(*this, body, new_side, true, out);
        if (line[0] == ' ') lex_line(*this, body, old_side, false, out);
      }
    } else {
      if (line.starts_with("diff ")) in_hunk = false;
      out += line; // headers and "\ No newline at end of file"
    }
    if (newline) out.push_back('\n');
  });
  return out;
}

std::string Scrubber::code(std::string_view text) {
  if (text.empty()) return {};
  bool diff = text.starts_with("diff --git ") || text.starts_with("--- ") || text.starts_with("@@");
  return code_lines(text, diff);
}

} // namespace otm::scrub
