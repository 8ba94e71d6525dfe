#include "explain/code_lines.hpp"

#include <map>
#include <optional>

#include "code/source_lexer.hpp"
#include "gates/record_text.hpp"
#include "io/file.hpp"
#include "text/lines.hpp"
#include "text/utf8.hpp"

namespace otm::explain {

namespace {

using code::DiffLine;

// One line of the packet's code with its position in the trace's file.
struct Located {
  std::string_view text, body; // whole line; without the diff marker
  char role = 'k';
  std::optional<std::size_t> hunk;
  std::string hunk_header;
  std::optional<std::size_t> old_line, new_line;
  code::LineKind kind = code::LineKind::Code;
};

// "@@ -12,7 +12,9 @@ ..." -> (12, 12); nullopt when malformed.
std::optional<std::pair<std::size_t, std::size_t>> hunk_starts(std::string_view h) {
  auto number_after = [&](char sign) -> std::optional<std::size_t> {
    auto at = h.find(sign, 2);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t n = 0, i = at + 1;
    if (i >= h.size() || h[i] < '0' || h[i] > '9') return std::nullopt;
    for (; i < h.size() && h[i] >= '0' && h[i] <= '9'; ++i) n = n * 10 + static_cast<std::size_t>(h[i] - '0');
    return n;
  };
  auto a = number_after('-'), c = number_after('+');
  if (!a || !c) return std::nullopt;
  return std::make_pair(*a, *c);
}

std::vector<Located> locate_all(const CodeFile &code) {
  std::vector<Located> out;
  if (!code.is_diff) {
    std::size_t n = 0;
    for (const auto &line : code::lex_source(code.text, code::Language::Python)) {
      Located l;
      l.text = l.body = line.text;
      l.kind = line.kind;
      l.new_line = ++n;
      out.push_back(l);
    }
    return out;
  }
  std::size_t old_no = 0, new_no = 0;
  std::string header;
  for (const auto &d : code::lex_diff(code.text)) {
    if (d.role == DiffLine::Role::HunkHeader) {
      auto starts = hunk_starts(d.text);
      old_no = starts ? starts->first : 0;
      new_no = starts ? starts->second : 0;
      auto end = d.text.find("@@", 2);
      header = std::string(d.text.substr(0, end == std::string_view::npos ? d.text.size() : end + 2));
      // A snippet of several hunks quotes each one's header: it is a line
      // of the diff, at no line of the file.
      Located h;
      h.text = h.body = d.text;
      h.role = '@';
      h.hunk = d.hunk;
      h.hunk_header = header;
      out.push_back(h);
      continue;
    }
    if (d.role != DiffLine::Role::Context && d.role != DiffLine::Role::Added && d.role != DiffLine::Role::Removed)
      continue;
    Located l;
    l.text = d.text;
    l.body = d.text.substr(1);
    l.hunk = d.hunk;
    l.hunk_header = header;
    l.kind = d.kind;
    if (d.role == DiffLine::Role::Context) l.role = ' ', l.old_line = old_no++, l.new_line = new_no++;
    if (d.role == DiffLine::Role::Added) l.role = '+', l.new_line = new_no++;
    if (d.role == DiffLine::Role::Removed) l.role = '-', l.old_line = old_no++;
    out.push_back(l);
  }
  return out;
}

bool is_marker(char c) { return c == '+' || c == '-' || c == ' '; }

// Whether snippet line `s` is the located line `l` (as the verbatim gate
// matches: whole line, or without the marker).
bool same_line(std::string_view s, const Located &l) {
  std::string n = gates::collapse_whitespace(s);
  if (n.empty()) return false;
  if (gates::collapse_whitespace(l.text) == n) return true;
  if (gates::collapse_whitespace(l.body) == n) return true;
  return !s.empty() && is_marker(s[0]) && gates::collapse_whitespace(s.substr(1)) == gates::collapse_whitespace(l.body);
}

// The file's lines at a commit (or the working tree), cached per commit.
class FileLines {
public:
  FileLines(const git::Repository &repo, std::string path) : repo_(repo), path_(std::move(path)) {}
  std::optional<std::string> line(const std::string &commit, std::size_t n) {
    auto it = cache_.find(commit);
    if (it == cache_.end()) {
      std::optional<std::string> content;
      try {
        content = commit.empty() ? std::nullopt : repo_.read_at(commit, path_);
      } catch (const std::exception &) {
      }
      std::vector<std::string> lines;
      if (content)
        for (auto l : text::split_lines(*content)) lines.emplace_back(l);
      it = cache_.emplace(commit, std::move(lines)).first;
    }
    if (n == 0 || n > it->second.size()) return std::nullopt;
    return it->second[n - 1];
  }

private:
  const git::Repository &repo_;
  std::string path_;
  std::map<std::string, std::vector<std::string>> cache_;
};

} // namespace

std::vector<CodeLine> locate_code_lines(const std::string &field, const std::string &quote, const CodeFile &code,
                                        const git::Repository &repo, std::size_t max_lines, std::size_t *not_located) {
  std::vector<CodeLine> out;
  auto located = locate_all(code);
  FileLines files(repo, code.path);
  std::size_t cursor = 0, number = 0;
  for (auto s : text::split_lines(quote)) {
    ++number;
    if (text::strip(s).empty()) continue;
    if (out.size() >= max_lines) {
      if (not_located) ++*not_located;
      continue;
    }
    CodeLine c;
    c.field = field;
    c.line = number;
    c.text = std::string(s);
    c.file = code.path;
    c.old_commit = code.is_diff ? code.old_commit : "";
    c.new_commit = code.new_commit;
    // Snippets are runs of the code: look from the last match on, then
    // from the start.
    std::optional<std::size_t> hit;
    for (std::size_t pass = 0; pass < 2 && !hit; ++pass)
      for (std::size_t i = pass ? 0 : cursor; i < located.size(); ++i)
        if (same_line(s, located[i])) {
          hit = i;
          break;
        }
    if (!hit) {
      c.problem = code.text.empty() ? "the rebuilt packet carries no code" : "not a line of the rebuilt packet's code";
      out.push_back(std::move(c));
      continue;
    }
    cursor = *hit + 1;
    const Located &l = located[*hit];
    c.role = l.role;
    c.hunk = l.hunk;
    c.hunk_header = l.hunk_header;
    c.old_line = l.old_line;
    c.new_line = l.new_line;
    // Checked against git's copy of the file at the commit each side names.
    auto check = [&](const std::string &commit, std::optional<std::size_t> n) {
      if (!n) return true;
      if (commit.empty()) return !code.is_diff; // a working-tree kernel file: its line is the packet's
      auto raw = files.line(commit, *n);
      return raw && gates::collapse_whitespace(*raw) == gates::collapse_whitespace(l.body);
    };
    bool old_ok = check(c.old_commit, c.old_line), new_ok = check(c.new_commit, c.new_line);
    if (!old_ok || !new_ok) {
      // The scrubber rewrites comments and docstrings, never code: a line it
      // rewrote is still at its position.
      if (code::is_executable(l.kind))
        c.problem = std::string("differs from ") + code.path + " line " +
                    std::to_string(!old_ok ? *c.old_line : *c.new_line) + " at " +
                    (!old_ok ? c.old_commit : c.new_commit).substr(0, 12);
    }
    out.push_back(std::move(c));
  }
  return out;
}

} // namespace otm::explain
