#include "distill/snippet_choice.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <tuple>
#include <vector>

#include "code/source_lexer.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string join_lines(const std::vector<std::string_view> &lines, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) {
    if (i > begin) out += '\n';
    out += lines[i];
  }
  return out;
}

struct HunkScore {
  std::size_t strong = 0, weak = 0, running = 0;
  auto key() const { return std::tuple(strong, weak, running); }
};

bool hunk_holds(const HunkReading &h, std::string_view name) {
  for (const auto &c : h.running)
    if (!c.dead && holds_name(c.code, name)) return true;
  return false;
}

HunkScore score_of(const HunkReading &h, const std::vector<ChangeName> &names) {
  HunkScore s;
  s.running = h.running_lines();
  for (const auto &n : names)
    if (hunk_holds(h, n.text)) ++(n.strong ? s.strong : s.weak);
  return s;
}

// The body lines of one hunk to quote: from kContextLines before its first
// running changed line to kContextLines after its last (comment, docstring
// and version-stamp changes around them are context, not the change), cut
// to kMaxSnippetLines around the first running line that holds a name.
std::pair<std::size_t, std::size_t> window_of(const DiffReading &d, const HunkReading &h,
                                              const std::vector<ChangeName> &names) {
  std::size_t begin = h.body_begin, end = h.body_end;
  // Trailing empty strings come from the file's final newline, not the hunk.
  while (end > begin && d.lines[end - 1].empty()) --end;
  std::optional<std::size_t> first, last, named;
  for (const auto &c : h.running) {
    if (c.dead) continue;
    if (!first) first = c.line;
    last = c.line;
    if (!named)
      for (const auto &n : names)
        if (holds_name(c.code, n.text)) named = c.line;
  }
  if (!first) return {begin, end};
  begin = std::max(begin, *first > kContextLines ? *first - kContextLines : 0);
  end = std::min(end, *last + kContextLines + 1);
  if (end - begin <= kMaxSnippetLines) return {begin, end};
  std::size_t anchor = named ? *named : *first;
  begin = std::max(begin, anchor > kContextLines ? anchor - kContextLines : 0);
  return {begin, std::min(end, begin + kMaxSnippetLines)};
}

// C-family code of a source file as the lexer sees it: per line, the text
// of its embedded (or, for C-family files, all) code spans, and the brace
// depth at the line's start.
struct CLines {
  std::vector<std::string> code;
  std::vector<int> depth_before;
};
CLines c_lines(const std::vector<code::SourceLine> &lines) {
  CLines c;
  int depth = 0;
  for (const auto &l : lines) {
    std::string text;
    for (const auto &sp : l.spans)
      if (sp.embedded && sp.kind == code::SpanKind::Code) text += l.text.substr(sp.begin, sp.end - sp.begin);
    c.depth_before.push_back(depth);
    for (char ch : text) {
      if (ch == '{') ++depth;
      if (ch == '}' && depth > 0) --depth;
    }
    c.code.push_back(std::move(text));
  }
  c.depth_before.push_back(depth);
  return c;
}

// The line after the brace block that starts at or after `from` closes.
std::size_t block_end(const CLines &c, std::size_t from) {
  bool opened = false;
  for (std::size_t k = from; k < c.code.size(); ++k) {
    if (c.depth_before[k + 1] > c.depth_before[from]) opened = true;
    if (c.code[k].find('{') != std::string::npos) opened = true;
    if (opened && c.depth_before[k + 1] <= c.depth_before[from]) return k + 1;
  }
  return c.code.size();
}

std::optional<EntryFunction> cuda_entry(const std::vector<std::string_view> &lines,
                                        const std::vector<code::SourceLine> &lexed) {
  static const text::Regex global(R"(__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\()");
  auto c = c_lines(lexed);
  for (std::size_t i = 0; i < c.code.size(); ++i) {
    if (c.code[i].find("__global__") == std::string::npos) continue;
    std::string head;
    for (std::size_t k = i; k < c.code.size() && k < i + 4; ++k) head += c.code[k] + " ";
    auto m = global.search(head);
    if (!m) continue;
    std::size_t begin = i;
    if (begin > 0 && text::strip(c.code[begin - 1]).starts_with("template")) --begin;
    return EntryFunction{std::string((*m)[1]), join_lines(lines, begin, block_end(c, i)), true};
  }
  return std::nullopt;
}

// [begin, end) of the Python block whose header is line `i`.
std::size_t python_block_end(const std::vector<std::string_view> &lines, std::size_t i) {
  std::size_t indent = lines[i].size() - text::lstrip(lines[i]).size(), end = i + 1;
  for (std::size_t k = i + 1; k < lines.size(); ++k) {
    if (text::strip(lines[k]).empty()) continue;
    if (lines[k].size() - text::lstrip(lines[k]).size() <= indent) break;
    end = k + 1;
  }
  return end;
}

} // namespace

std::optional<DiffSnippet> choose_diff_hunks(const DiffReading &diff, std::string_view change_text) {
  auto names = named_in(diff, change_text);
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < diff.hunks.size(); ++i)
    if (diff.hunks[i].running_lines() > 0) candidates.push_back(i);
  if (candidates.empty()) return std::nullopt;
  std::vector<HunkScore> scores(diff.hunks.size());
  for (auto i : candidates) scores[i] = score_of(diff.hunks[i], names);
  auto best_holding = [&](const ChangeName *name) {
    std::optional<std::size_t> best;
    for (auto i : candidates) {
      if (name && !hunk_holds(diff.hunks[i], name->text)) continue;
      if (!best || scores[i].key() > scores[*best].key()) best = i;
    }
    return best;
  };
  std::vector<std::size_t> chosen{*best_holding(nullptr)};
  for (const auto &n : names) {
    if (!n.strong || chosen.size() >= kMaxHunks) continue;
    bool covered = false;
    for (auto i : chosen) covered = covered || hunk_holds(diff.hunks[i], n.text);
    if (covered) continue;
    if (auto i = best_holding(&n)) chosen.push_back(*i);
  }
  std::sort(chosen.begin(), chosen.end());
  DiffSnippet s;
  s.hunks_quoted = chosen.size();
  std::vector<std::string_view> out;
  for (auto i : chosen) {
    const auto &h = diff.hunks[i];
    if (chosen.size() > 1) out.push_back(diff.lines[h.header]);
    auto [begin, end] = window_of(diff, h, names);
    for (std::size_t k = begin; k < end; ++k) out.push_back(diff.lines[k]);
  }
  s.text = join_lines(out, 0, out.size());
  for (const auto &n : names) {
    if (!n.strong) continue;
    bool quoted = false;
    for (auto i : chosen)
      for (const auto &c : diff.hunks[i].running)
        if (!c.dead && holds_name(c.code, n.text) && s.text.find(diff.lines[c.line]) != std::string::npos)
          quoted = true;
    if (quoted) s.names.push_back(n.text);
  }
  return s;
}

std::optional<EntryFunction> choose_entry_function(std::string_view source) {
  static const text::Regex decorator(R"(^(\s*)@[\w.]*(?:jit|kernel)\w*\b)");
  static const text::Regex def(R"(^(\s*)(?:async\s+)?def\s+(\w+)\s*\()");
  static const text::Regex word(R"(\b\w+\b)");
  auto lines = split_lines(source);
  struct Fn {
    std::string name;
    std::size_t begin, end;
  };
  std::vector<Fn> fns;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!decorator.match(lines[i])) continue;
    std::size_t j = i;
    while (j < lines.size() && text::lstrip(lines[j]).starts_with("@")) ++j;
    if (j >= lines.size()) break;
    auto m = def.match(lines[j]);
    if (!m) continue;
    std::size_t indent = (*m)[1].size();
    std::size_t end = j + 1;
    for (std::size_t k = j + 1; k < lines.size(); ++k) {
      auto stripped = text::strip(lines[k]);
      if (stripped.empty()) continue;
      std::size_t ind = lines[k].size() - text::lstrip(lines[k]).size();
      if (ind <= indent) break;
      end = k + 1;
    }
    fns.push_back({std::string((*m)[2]), i, end});
    i = end - 1;
  }
  if (fns.empty()) return cuda_entry(lines, code::lex_source(source, code::Language::Python));
  const Fn *best = nullptr;
  std::size_t best_uses = 0;
  for (const auto &f : fns) {
    std::size_t uses = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i >= f.begin && i < f.end) continue;
      for (const auto &w : word.find_all(lines[i]))
        if (w[0] == f.name) ++uses;
    }
    if (!best || uses > best_uses) {
      best = &f;
      best_uses = uses;
    }
  }
  return EntryFunction{best->name, join_lines(lines, best->begin, best->end)};
}

std::optional<std::string> choose_launch(std::string_view source, const EntryFunction &entry) {
  auto lines = split_lines(source);
  auto lexed = code::lex_source(source, code::Language::Python);
  std::vector<std::string_view> out;
  if (entry.cuda) {
    auto c = c_lines(lexed);
    text::Regex launch("\\b" + entry.name + "\\s*<<<");
    for (std::size_t i = 0; i < c.code.size(); ++i) {
      if (!launch.contains(c.code[i])) continue;
      // The host function holding the launch: back to the first line of its
      // signature at depth 0, forward to its closing brace.
      std::size_t begin = i;
      while (begin > 0 && c.depth_before[begin] > 0) --begin;
      while (begin > 0 && c.depth_before[begin - 1] == 0 && !text::strip(c.code[begin - 1]).empty() &&
             !text::strip(c.code[begin - 1]).ends_with(";") && !text::strip(c.code[begin - 1]).ends_with("}") &&
             !text::strip(c.code[begin - 1]).starts_with("#"))
        --begin;
      for (std::size_t k = begin; k < block_end(c, begin); ++k) out.push_back(lines[k]);
      break;
    }
  } else {
    static const text::Regex def(R"(^def\s+(\w+)\s*\()");
    static const text::Regex constant(R"(^([A-Za-z_]\w*)\s*(?::[^=]+)?=[^=])");
    text::Regex launch("\\b" + entry.name + "\\s*\\[");
    std::vector<std::pair<std::size_t, std::size_t>> launchers;
    std::string named = entry.text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      auto d = def.match(lines[i]);
      if (!d || (*d)[1] == entry.name || lexed[i].kind != code::LineKind::Code) continue;
      std::size_t end = python_block_end(lines, i);
      bool launches = false;
      for (std::size_t k = i; k < end && !launches; ++k) launches = launch.contains(lines[k]);
      if (!launches) continue;
      launchers.emplace_back(i, end);
      named += '\n';
      named += join_lines(lines, i, end);
    }
    if (launchers.empty()) return std::nullopt;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      auto m = constant.match(lines[i]);
      if (!m || lexed[i].kind != code::LineKind::Code) continue;
      // One-line assignments only: a bracket or string left open spans lines.
      std::string_view l = lines[i];
      if (std::count(l.begin(), l.end(), '(') != std::count(l.begin(), l.end(), ')') ||
          std::count(l.begin(), l.end(), '[') != std::count(l.begin(), l.end(), ']') ||
          l.find("\"\"\"") != std::string_view::npos || l.find("'''") != std::string_view::npos)
        continue;
      bool used = holds_name(named, std::string((*m)[1]));
      if (used) out.push_back(lines[i]);
    }
    for (auto [b, e] : launchers) {
      if (!out.empty()) out.push_back("");
      while (e > b && text::strip(lines[e - 1]).empty()) --e;
      for (std::size_t k = b; k < e; ++k) out.push_back(lines[k]);
    }
  }
  if (out.empty()) return std::nullopt;
  return join_lines(out, 0, out.size());
}

} // namespace otm::distill
