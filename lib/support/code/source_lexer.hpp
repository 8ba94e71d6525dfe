// What is a comment, a docstring, a string or code in kernel source: the one
// lexer every stage shares. The scrubber rewrites only comment and docstring
// spans (so a quoted snippet still compiles); the packet builder and the
// drafter ask whether a line, a hunk or a whole diff changes executable code
// (a comment-only or version-stamp-only change is not a code change).
//
// Languages:
//   Python   - `#` comments; '…' "…" strings (r/b/u/f prefixes); a
//              triple-quoted string standing alone as a statement outside
//              brackets is a docstring. Any other triple-quoted string, and a
//              one-line string given to a name that holds source
//              (`cuda_sources=`, `cpp_src = (` …, see below), is embedded
//              C/C++/CUDA/PTX source and is lexed as CFamily inside the
//              quotes (its spans have `embedded = true`).
//   CFamily  - C, C++, CUDA, HIP and PTX: `//` and `/* */` comments (block
//              comments may span lines), "…" and '…' literals; `#` lines are
//              preprocessor code, never comments.
//
// Usage, source text:
//   for (const auto &line : code::lex_source(text, code::Language::Python))
//     if (line.kind == code::LineKind::Code) …            // executable line
//     for (const auto &s : line.spans) if (s.kind == code::SpanKind::Comment) …
// Usage, a unified diff (`git diff` output; each file's language from its
// path, each side lexed with its own state, each hunk starting as code):
//   auto lines = code::lex_diff(diff);
//   code::count_changes(lines).code == 0   // the diff changes no executable line
//   code::count_changes(lines, h)           // the same for hunk h only
// Incremental use (a caller that walks lines itself): code::SourceLexer.
//
// Limits: a diff hunk that starts inside a multi-line string is guessed from
// the hunk's text (a first triple quote preceded by prose closes a string);
// C++ raw strings and Python backslash-continued one-line strings are not
// recognised.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

enum class Language { Python, CFamily };

// By file name: .cu .cuh .c .cc .cpp .cxx .h .hh .hpp .hxx .hip .ptx are
// CFamily; anything else (kernel.py, snapshots) is Python.
Language language_of_path(std::string_view path);

enum class SpanKind {
  Code,      // executable text, whitespace between tokens, an embedded source's own quotes
  String,    // a string or character literal that is data, quotes included
  Comment,   // a comment with its markers (`# …`, `// …`, `/* … */` or the part of it on this line)
  Docstring, // a Python docstring's quotes or text
};

struct Span {
  std::size_t begin = 0, end = 0; // byte offsets into the line (or diff line) given
  SpanKind kind = SpanKind::Code;
  bool embedded = false; // inside C/C++/CUDA/PTX source held by a Python string literal
};

enum class LineKind {
  Blank,        // only whitespace
  Comment,      // only comment or docstring text besides whitespace
  VersionStamp, // code that only records a version: `__version__ = "1.2"`,
                // `KERNEL_VERSION = 25`, `#define KERNEL_VERSION 25`, `const int kVersion = 3;`
  Code,         // anything else: executable code, data literals, embedded source lines
};

// A comment-only, stamp-only or blank line is not a change to what runs.
inline bool is_executable(LineKind k) { return k == LineKind::Code; }

// The lexer with its state carried from line to line.
class SourceLexer {
public:
  explicit SourceLexer(Language language = Language::Python) : language_(language) {}
  // The spans of one line (without its newline), covering [0, line.size())
  // in order; adjacent spans may share a kind.
  std::vector<Span> lex_line(std::string_view line);
  Language language() const { return language_; }
  // Starts the next line inside a docstring or an embedded source string
  // opened with `quote` (a diff hunk that begins mid-string).
  void assume_inside_string(bool docstring, char quote);
  // Where the next line starts: inside a multi-line string (a docstring or
  // an embedded source), and at which Python bracket depth.
  bool in_string() const { return mode_ != Mode::Code; }
  int bracket_depth() const { return depth_; }

private:
  enum class Mode { Code, Docstring, Embedded };
  void lex_python(std::string_view line, std::vector<Span> &out);
  void lex_c(std::string_view line, std::size_t from, std::size_t to, bool embedded, bool literals,
             std::vector<Span> &out);
  Language language_;
  Mode mode_ = Mode::Code;
  char quote_ = '"';
  bool in_block_comment_ = false; // CFamily state (top level or the embedded source)
  int depth_ = 0;                 // Python bracket depth
  int source_depth_ = 0;          // > 0: strings at this depth or deeper hold embedded source
};

// How one line reads, from its spans.
LineKind classify_line(std::string_view line, const std::vector<Span> &spans);

struct SourceLine {
  std::string_view text; // without the newline
  std::vector<Span> spans;
  LineKind kind = LineKind::Blank;
};
std::vector<SourceLine> lex_source(std::string_view text, Language language);

struct DiffLine {
  enum class Role {
    Header,     // diff --git, index, ---/+++ and any other line outside a hunk
    HunkHeader, // @@ -a,b +c,d @@ [function context]
    Context,    // ' ' line
    Added,      // '+' line
    Removed,    // '-' line
    Marker,     // "\ No newline at end of file"
  };
  std::string_view text; // the whole line, without its newline
  Role role = Role::Header;
  std::size_t body = 0;    // where the source text starts in `text` (after the marker, or after a hunk header's "@@")
  std::vector<Span> spans; // of text[body, size), offsets into `text`
  LineKind kind = LineKind::Blank; // of the source text (Blank for Header and Marker)
  std::size_t hunk = npos;         // 0-based hunk index across the whole diff; npos outside hunks
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

// Whether `text` is a unified diff (starts with "diff --git ", "--- " or "@@").
bool is_unified_diff(std::string_view text);
// `after`: the diff's (single) file after the change, when known: a hunk
// then starts in the state the whole file's lexing is in at its first new
// line (inside a docstring or not), not in the state its own lines suggest
// (round 15: a hunk inside a module docstring, whose lone closing `"""`
// the guess read as opening one, quoted as a change to running code).
std::vector<DiffLine> lex_diff(std::string_view diff, std::optional<std::string_view> after = std::nullopt);

// Changed (added or removed) lines by kind, over the whole diff or one hunk.
struct ChangeCounts {
  std::size_t code = 0, version_stamp = 0, comment = 0, blank = 0;
  bool changes_code() const { return code > 0; }
};
ChangeCounts count_changes(const std::vector<DiffLine> &lines, std::size_t hunk = DiffLine::npos);

} // namespace otm::code
