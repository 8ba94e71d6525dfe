#include "distill/reference_kernel_code.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <tuple>
#include <vector>

#include "code/source_lexer.hpp"
#include "distill/diff_reading.hpp"
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
