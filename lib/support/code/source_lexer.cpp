#include "code/source_lexer.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_prefix_letter(char c) { return std::string_view("rRbBuUfF").find(c) != std::string_view::npos; }

void push(std::vector<Span> &out, std::size_t b, std::size_t e, SpanKind k, bool embedded = false) {
  if (b < e) out.push_back({b, e, k, embedded});
}

// Pre-checks of the line regexes below, each false only where its regex
// cannot match (the regex decides the rest), so most lines skip PCRE2: a
// diff's lines are matched against several patterns each, under several
// hypotheses (guess_hunk_start), and that was most of lexing a diff. Any
// non-ASCII byte leaves the answer to the regex (\s, \w and caseless
// letters are Unicode-aware there).
bool ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool has_non_ascii(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}
// "version" in any case (every version-stamp pattern holds it).
bool may_name_version(std::string_view s) {
  if (has_non_ascii(s)) return true;
  static constexpr std::string_view kWord = "version";
  for (std::size_t i = 0; i + kWord.size() <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < kWord.size() && (s[i + k] | 0x20) == kWord[k]) ++k;
    if (k == kWord.size()) return true;
  }
  return false;
}
// Ends with '=' and white space (names_source's `=\s*$`).
bool may_end_in_assignment(std::string_view s) {
  std::size_t n = s.size();
  while (n > 0 && ascii_space(s[n - 1])) --n;
  return n > 0 && (s[n - 1] == '=' || static_cast<unsigned char>(s[n - 1]) >= 0x80);
}

// A name that holds C/C++/CUDA/PTX source: `cuda_sources=`, `cpp_src = `,
// `PTX: str = ` at the end of the text before a string or a bracket.
bool names_source(std::string_view before) {
  static const text::Regex r(R"((?i)\b\w*(?:sources?|src|cuda|cpp|ptx|hip|asm)\w*\s*(?::[^=]*)?=\s*$)");
  return may_end_in_assignment(before) && r.contains(before);
}

bool is_version_stamp(std::string_view code) {
  if (!may_name_version(code)) return false;
  static const text::Regex python(R"((?i)^["']?\w*version\w*["']?\s*(?::\s*\w+\s*)?[:=]\s*)"
                                  R"((?:[rbuf]{0,2}"[^"]*"|[rbuf]{0,2}'[^']*'|v?\d[\w.]*|\(\s*[\d\s,.]*\))\s*[,;]?$)");
  static const text::Regex define(R"((?i)^#\s*define\s+\w*version\w*(?:\s+\S+)?$)");
  static const text::Regex declaration(
      R"((?i)^(?:(?:static|constexpr|const|inline|__device__|__constant__)\s+)*[\w:]+\s+\w*version\w*\s*=\s*)"
      R"((?:"[^"]*"|v?\d[\w.]*)\s*;$)");
  return python.contains(code) || define.contains(code) || declaration.contains(code);
}

std::string path_of_header(std::string_view line) {
  if (line.starts_with("diff --git ")) {
    auto b = line.rfind(" b/");
    return b == std::string_view::npos ? std::string() : std::string(line.substr(b + 3));
  }
  if (line.starts_with("+++ ")) {
    auto p = line.substr(4);
    if (p.starts_with("b/")) p.remove_prefix(2);
    return p == "/dev/null" ? std::string() : std::string(p);
  }
  return {};
}

// The pre-checks of how a hunk's line looks (see ascii_space above), from
// each pattern's anchors (LineLooks below): Python needs a leading keyword
// or '@', an assignment after a run of names, dots, brackets, commas and
// spaces, or a last ([,: ; C a last ;{} or a leading #include, #define, __,
// template or //; prose is words and white space with ' - . , ! ? only.
bool non_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }
std::string_view after_leading_space(std::string_view l) {
  std::size_t i = 0;
  while (i < l.size() && ascii_space(l[i])) ++i;
  return l.substr(i);
}
char last_non_space(std::string_view l) {
  std::size_t n = l.size();
  while (n > 0 && ascii_space(l[n - 1])) --n;
  return n ? l[n - 1] : '\0';
}
bool may_read_as_python(std::string_view l) {
  static constexpr std::string_view kKeywords[] = {"def",   "class",  "return", "if",    "elif",     "else",   "for",
                                                   "while", "import", "from",   "with",  "try",      "except", "raise",
                                                   "yield", "assert", "pass",   "break", "continue", "lambda", "@"};
  auto rest = after_leading_space(l);
  if (!rest.empty() && non_ascii(rest[0])) return true;
  if (std::any_of(std::begin(kKeywords), std::end(kKeywords), [&](std::string_view k) { return rest.starts_with(k); }))
    return true;
  auto stop = std::find_if(rest.begin(), rest.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return !(std::isalnum(u) || ascii_space(c) || std::string_view("_.[], ").find(c) != std::string_view::npos);
  });
  if (stop != rest.end() && (non_ascii(*stop) || std::string_view("=-+*/%|&").find(*stop) != std::string_view::npos))
    return true;
  char end = last_non_space(l);
  return non_ascii(end) || (end && std::string_view("([,:").find(end) != std::string_view::npos);
}
bool may_read_as_c(std::string_view l) {
  static constexpr std::string_view kCStarts[] = {"#include", "#define", "__global__", "__device__", "template", "//"};
  char end = last_non_space(l);
  if (non_ascii(end) || (end && std::string_view(";{}").find(end) != std::string_view::npos)) return true;
  auto rest = after_leading_space(l);
  return (!rest.empty() && non_ascii(rest[0])) ||
         std::any_of(std::begin(kCStarts), std::end(kCStarts), [&](std::string_view k) { return rest.starts_with(k); });
}
bool may_read_as_prose(std::string_view l) {
  return std::all_of(l.begin(), l.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u >= 0x80 || std::isalnum(u) || ascii_space(c) ||
           std::string_view("_'-.,!?").find(c) != std::string_view::npos;
  });
}
bool has_code_punctuation(std::string_view l) { return l.find_first_of("=(){}[]:;") != std::string_view::npos; }

// How each line of a hunk's side looks: like Python, like C, like prose,
// like a C preprocessor line. That does not depend on where the hunk is
// assumed to start, so each is matched once per line, not once per
// hypothesis (these regexes were most of a diff's lexing), and only when a
// score asks (a code line needs only whether it reads like prose or C).
class LineLooks {
public:
  explicit LineLooks(const std::vector<std::string_view> &side) : side_(side), looks_(side.size()) {}

  bool python(std::size_t i) {
    static const text::Regex r(
        R"(^\s*(?:(?:def|class|return|if|elif|else|for|while|import|from|with|try|except|raise|yield|assert|pass|)"
        R"(break|continue|lambda)\b|@\w)|^\s*[\w.\[\], ]+\s*(?:[-+*/%|&]|//)?=(?!=)|[(\[,:]\s*$)");
    auto &k = looks_[i].python;
    if (!k) k = may_read_as_python(side_[i]) && r.contains(side_[i]);
    return *k;
  }
  bool c(std::size_t i) {
    static const text::Regex r(R"([;{}]\s*$|^\s*(?:#include|#define|__global__|__device__|template\s*<|//))");
    auto &k = looks_[i].c;
    if (!k) k = may_read_as_c(side_[i]) && r.contains(side_[i]);
    return *k;
  }
  // `from triton.experimental import gluon` reads as words but is code.
  bool prose(std::size_t i) {
    static const text::Regex r(R"(^\s*[A-Za-z][\w'-]*(?:,?\s+[\w'.,-]+){2,}[.!?]?\s*$)");
    auto &k = looks_[i].prose;
    if (!k) k = may_read_as_prose(side_[i]) && !has_code_punctuation(side_[i]) && r.contains(side_[i]) && !python(i);
    return *k;
  }
  // A C preprocessor line, which Python would read as a comment.
  bool preprocessor(std::size_t i) {
    static const text::Regex r(R"(^\s*#(?:include|define|pragma|ifdef|ifndef|endif|undef)\b)");
    auto &k = looks_[i].preprocessor;
    if (!k) k = side_[i].find('#') != std::string_view::npos && r.contains(side_[i]);
    return *k;
  }

private:
  struct Looks {
    std::optional<bool> python, c, prose, preprocessor;
  };
  const std::vector<std::string_view> &side_;
  std::vector<Looks> looks_;
};

// A hunk may start inside a multi-line string, which its text alone cannot
// say for sure. Each side is lexed under three hypotheses - it starts in
// code, inside a docstring, inside an embedded source string - and the one
// whose classification contradicts the lines' look least wins (ties: code,
// then docstring): a docstring line that reads like Python code, a code
// line that reads like prose or like C, an embedded line that reads like
// Python.
struct HunkStart {
  bool inside = false, docstring = true;
  char quote = '"';
};

// The quote of the first triple-quoted string on `side`, 0 when none.
char first_triple_quote(const std::vector<std::string_view> &side) {
  for (auto l : side) {
    auto dq = l.find("\"\"\""), sq = l.find("'''");
    if (dq == std::string_view::npos && sq == std::string_view::npos) continue;
    return dq < sq ? '"' : '\'';
  }
  return 0;
}

// How many lines of `side`, lexed as starting at `start`, are classified
// against their look; counting stops at `enough` (a worse hypothesis need
// not be counted out).
std::size_t contradictions(const std::vector<std::string_view> &side, const HunkStart &start, LineLooks &looks,
                           std::size_t enough) {
  SourceLexer lexer(Language::Python);
  if (start.inside) lexer.assume_inside_string(start.docstring, start.quote);
  std::size_t score = 0;
  for (std::size_t i = 0; i < side.size() && score < enough; ++i) {
    auto l = side[i];
    auto spans = lexer.lex_line(l);
    auto kind = classify_line(l, spans);
    bool embedded = std::any_of(spans.begin(), spans.end(), [](const Span &s) { return s.embedded; });
    if (kind == LineKind::Comment && looks.python(i) && !looks.prose(i)) ++score;
    if (kind == LineKind::Comment && !embedded && looks.preprocessor(i)) ++score;
    if (kind == LineKind::Code && !embedded && (looks.prose(i) || looks.c(i))) ++score;
    if (kind == LineKind::Code && embedded && looks.python(i) && !looks.c(i)) ++score;
  }
  return score;
}

HunkStart guess_hunk_start(const std::vector<std::string_view> &side) {
  char quote = first_triple_quote(side);
  // Without a triple quote the hunk may still lie wholly inside an embedded
  // source string (a `#define` block of a load_inline source): only that
  // and code are weighed.
  const bool quoted = quote != 0;
  if (!quoted) quote = '"';
  // In code, inside a docstring, inside an embedded source string.
  const HunkStart hypotheses[] = {{false, false, quote}, {true, true, quote}, {true, false, quote}};
  LineLooks looks(side);
  HunkStart best;
  std::size_t best_score = static_cast<std::size_t>(-1);
  for (const HunkStart &start : hypotheses) {
    if (!quoted && start.inside && start.docstring) continue;
    if (best_score == 0) break; // no hypothesis can contradict less (and ties keep the earlier)
    std::size_t score = contradictions(side, start, looks, best_score);
    if (score < best_score) {
      best_score = score;
      best = start;
    }
  }
  return best;
}

} // namespace

Language language_of_path(std::string_view path) {
  static const text::Regex c_family(R"((?i)\.(?:cu|cuh|c|cc|cpp|cxx|h|hh|hpp|hxx|hip|ptx)$)");
  return c_family.contains(path) ? Language::CFamily : Language::Python;
}

void SourceLexer::assume_inside_string(bool docstring, char quote) {
  mode_ = docstring ? Mode::Docstring : Mode::Embedded;
  quote_ = quote;
  in_block_comment_ = false;
}

std::vector<Span> SourceLexer::lex_line(std::string_view line) {
  std::vector<Span> out;
  if (language_ == Language::CFamily)
    lex_c(line, 0, line.size(), false, true, out);
  else
    lex_python(line, out);
  return out;
}

void SourceLexer::lex_c(std::string_view line, std::size_t from, std::size_t to, bool embedded, bool literals,
                        std::vector<Span> &out) {
  std::size_t i = from, code = from;
  auto comment_until = [&](std::size_t start, std::size_t search) {
    auto close = line.find("*/", search);
    if (close == std::string_view::npos || close + 2 > to) {
      push(out, start, to, SpanKind::Comment, embedded);
      return to;
    }
    in_block_comment_ = false;
    push(out, start, close + 2, SpanKind::Comment, embedded);
    return close + 2;
  };
  if (in_block_comment_) i = code = comment_until(from, from);
  while (i < to) {
    char c = line[i];
    if (c == '/' && i + 1 < to && line[i + 1] == '/') {
      push(out, code, i, SpanKind::Code, embedded);
      push(out, i, to, SpanKind::Comment, embedded);
      return;
    }
    if (c == '/' && i + 1 < to && line[i + 1] == '*') {
      push(out, code, i, SpanKind::Code, embedded);
      in_block_comment_ = true;
      i = code = comment_until(i, i + 2);
      continue;
    }
    // A quote after a digit or letter is a C++14 digit separator or part of
    // a name, not a literal.
    bool literal = literals && (c == '"' || (c == '\'' && (i == from || !is_ident(line[i - 1]))));
    if (literal) {
      std::size_t j = i + 1;
      while (j < to && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, to);
      push(out, code, i, SpanKind::Code, embedded);
      push(out, i, j, SpanKind::String, embedded);
      i = code = j;
      continue;
    }
    ++i;
  }
  push(out, code, to, SpanKind::Code, embedded);
}

void SourceLexer::lex_python(std::string_view line, std::vector<Span> &out) {
  std::size_t i = 0, n = line.size(), code = 0;
  while (i < n) {
    if (mode_ != Mode::Code) {
      auto close = line.find(std::string(3, quote_), i);
      std::size_t end = close == std::string_view::npos ? n : close;
      if (mode_ == Mode::Docstring)
        push(out, i, end, SpanKind::Docstring);
      else
        lex_c(line, i, end, true, true, out);
      if (close == std::string_view::npos) return;
      push(out, close, close + 3, mode_ == Mode::Docstring ? SpanKind::Docstring : SpanKind::Code);
      i = code = close + 3;
      mode_ = Mode::Code;
      continue;
    }
    char c = line[i];
    if (c == '#') {
      push(out, code, i, SpanKind::Code);
      push(out, i, n, SpanKind::Comment);
      return;
    }
    if (c == '\'' || c == '"') {
      // The literal's prefix (r, b, u, f, at most two) belongs to it.
      std::size_t pre = i;
      while (pre > code && i - pre < 2 && is_prefix_letter(line[pre - 1])) --pre;
      if (pre > 0 && is_ident(line[pre - 1])) pre = i; // `xr"` is a name, then a string
      auto before = line.substr(0, pre);
      if (line.substr(i, 3) == std::string(3, c)) {
        bool docstring = depth_ == 0 && text::strip(before).empty();
        push(out, code, pre, SpanKind::Code);
        push(out, pre, i + 3, docstring ? SpanKind::Docstring : SpanKind::Code);
        mode_ = docstring ? Mode::Docstring : Mode::Embedded;
        quote_ = c;
        in_block_comment_ = false;
        i = code = i + 3;
        continue;
      }
      std::size_t j = i + 1;
      while (j < n && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      std::size_t inner_end = std::min(j, n), end = std::min(j + 1, n);
      push(out, code, pre, SpanKind::Code);
      if (names_source(before) || (source_depth_ > 0 && depth_ >= source_depth_)) {
        // One-line embedded source: its comments are comments; its own
        // literals are not looked for (their quotes are escaped here).
        bool saved = in_block_comment_;
        in_block_comment_ = false;
        push(out, pre, i + 1, SpanKind::Code);
        lex_c(line, i + 1, inner_end, true, false, out);
        push(out, inner_end, end, SpanKind::Code);
        in_block_comment_ = saved;
      } else {
        push(out, pre, end, SpanKind::String);
      }
      i = code = end;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++depth_;
      if (source_depth_ == 0 && names_source(line.substr(0, i))) source_depth_ = depth_;
    } else if (c == ')' || c == ']' || c == '}') {
      if (source_depth_ > 0 && depth_ <= source_depth_) source_depth_ = 0;
      depth_ = std::max(0, depth_ - 1);
    }
    ++i;
  }
  push(out, code, n, SpanKind::Code);
}

LineKind classify_line(std::string_view line, const std::vector<Span> &spans) {
  bool any = false, code = false;
  for (const auto &s : spans) {
    auto t = line.substr(s.begin, s.end - s.begin);
    bool executable = s.kind == SpanKind::Code || s.kind == SpanKind::String;
    if (!text::strip(t).empty()) {
      any = true;
      code = code || executable;
    }
  }
  if (!any) return LineKind::Blank;
  if (!code) return LineKind::Comment;
  thread_local std::string code_text; // one buffer per thread, not an allocation per line
  code_text.clear();
  for (const auto &s : spans)
    if (s.kind == SpanKind::Code || s.kind == SpanKind::String) code_text += line.substr(s.begin, s.end - s.begin);
  return is_version_stamp(text::strip(code_text)) ? LineKind::VersionStamp : LineKind::Code;
}

std::vector<SourceLine> lex_source(std::string_view text, Language language) {
  std::vector<SourceLine> out;
  if (text.empty()) return out;
  SourceLexer lexer(language);
  for (auto line : text::split_lines(text)) {
    SourceLine l{line, lexer.lex_line(line)};
    l.kind = classify_line(line, l.spans);
    out.push_back(std::move(l));
  }
  // A final newline ends the last line; it starts none.
  if (text.ends_with('\n')) out.pop_back();
  return out;
}

bool is_unified_diff(std::string_view text) {
  return text.starts_with("diff --git ") || text.starts_with("--- ") || text.starts_with("@@");
}

std::vector<DiffLine> lex_diff(std::string_view diff, std::optional<std::string_view> after) {
  std::vector<DiffLine> out;
  if (diff.empty()) return out;
  auto lines = text::split_lines(diff);
  Language language = Language::Python;
  // The lexer's state at the start of each line of the file after the
  // change (Python only: a C source's hunks start outside comments).
  std::vector<SourceLexer> after_states;
  const auto files =
      std::count_if(lines.begin(), lines.end(), [](std::string_view l) { return l.starts_with("+++ "); });
  if (after && files <= 1) {
    SourceLexer lexer(Language::Python);
    for (auto l : text::split_lines(*after)) {
      after_states.push_back(lexer);
      lexer.lex_line(l);
    }
  }
  static const text::Regex new_start(R"(^@@ -\d+(?:,\d+)? \+(\d+))");
  SourceLexer old_side, new_side;
  bool in_hunk = false;
  std::size_t hunks = 0;
  auto is_hunk_line = [](std::string_view l) { return !l.empty() && (l[0] == ' ' || l[0] == '+' || l[0] == '-'); };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto line = lines[i];
    DiffLine d;
    d.text = line;
    auto body = [&](std::size_t at, SourceLexer &lexer) {
      d.body = at;
      auto src = line.substr(at);
      auto spans = lexer.lex_line(src);
      d.kind = classify_line(src, spans);
      for (auto &s : spans) s.begin += at, s.end += at;
      d.spans = std::move(spans);
    };
    if (line.starts_with("@@")) {
      in_hunk = true;
      d.role = DiffLine::Role::HunkHeader;
      d.hunk = hunks++;
      old_side = SourceLexer(language);
      new_side = SourceLexer(language);
      auto start = new_start.search(line);
      std::size_t first = start ? std::stoul(std::string((*start)[1])) : 0;
      if (language == Language::Python && first > 0 && first <= after_states.size()) {
        // Lines before a hunk read the same on both sides.
        old_side = new_side = after_states[first - 1];
      } else if (language == Language::Python) {
        std::vector<std::string_view> olds, news;
        for (std::size_t j = i + 1; j < lines.size() && is_hunk_line(lines[j]); ++j) {
          if (lines[j][0] != '+') olds.push_back(lines[j].substr(1));
          if (lines[j][0] != '-') news.push_back(lines[j].substr(1));
        }
        if (auto h = guess_hunk_start(olds); h.inside) old_side.assume_inside_string(h.docstring, h.quote);
        if (auto h = guess_hunk_start(news); h.inside) new_side.assume_inside_string(h.docstring, h.quote);
      }
      // The trailing function context is one line of code of its own.
      auto close = line.find("@@", 2);
      SourceLexer context(language);
      body(close == std::string_view::npos ? line.size() : close + 2, context);
    } else if (in_hunk && is_hunk_line(line)) {
      d.hunk = hunks - 1;
      if (line[0] == '-') {
        d.role = DiffLine::Role::Removed;
        body(1, old_side);
      } else {
        d.role = line[0] == '+' ? DiffLine::Role::Added : DiffLine::Role::Context;
        body(1, new_side);
        if (line[0] == ' ') old_side.lex_line(line.substr(1));
      }
    } else if (in_hunk && line.starts_with("\\")) {
      d.role = DiffLine::Role::Marker;
      d.body = line.size();
      d.hunk = hunks - 1;
    } else {
      if (line.starts_with("diff ")) in_hunk = false;
      if (!in_hunk) {
        auto path = path_of_header(line);
        if (!path.empty()) language = language_of_path(path);
      }
      d.body = line.size();
    }
    out.push_back(std::move(d));
  }
  // split_lines yields an empty last line after a final newline; it is no line.
  if (!out.empty() && out.back().text.empty() && diff.ends_with('\n')) out.pop_back();
  return out;
}

ChangeCounts count_changes(const std::vector<DiffLine> &lines, std::size_t hunk) {
  ChangeCounts c;
  for (const auto &l : lines) {
    if (l.role != DiffLine::Role::Added && l.role != DiffLine::Role::Removed) continue;
    if (hunk != DiffLine::npos && l.hunk != hunk) continue;
    switch (l.kind) {
    case LineKind::Code: ++c.code; break;
    case LineKind::VersionStamp: ++c.version_stamp; break;
    case LineKind::Comment: ++c.comment; break;
    case LineKind::Blank: ++c.blank; break;
    }
  }
  return c;
}

} // namespace otm::code
