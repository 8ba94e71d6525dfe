// Test support: whether a reference kernel's quoted code (snippet and
// dispatch_snippet together) holds what the kernel needs to run, judged
// against the whole kernel file with the shared lexer only, independently of
// the drafter's own reading:
//   * every non-blank quoted line is a line of the file, and each field's
//     lines come in file order (so the two merge back by file position);
//   * every name the file defines at its top level that a quoted line reads
//     is defined by a quoted line: Python assignments, imports, `def` and
//     `class` at column 0; in C/CUDA source held by a Python string, a
//     `#define` or a function or variable at brace depth 0;
//   * every quoted top-level `def` comes with all its decorator lines (a
//     multi-line `@triton.autotune(...)` included) and its whole body, and
//     the quoted Python brackets, triple quotes and C braces balance;
//   * the dispatch launches the kernel (`name[grid](` or `name<<<`).
// A read is any identifier of a code span not after `.`, `->` or `::` and not
// a keyword argument (`num_warps=8`): generous, so a miss is a real miss.
#pragma once

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "code/source_lexer.hpp"
#include "text/regex.hpp"

namespace otm::testsupport {

struct QuotedCodeCheck {
  std::vector<std::string> problems;
  std::set<std::size_t> quoted; // 0-based lines of the file the two fields quote
};

namespace quoted_detail {

inline std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string::npos) {
      if (start < text.size()) out.push_back(text.substr(start));
      break;
    }
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

inline std::string trimmed(const std::string &s) {
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Code of one lexed line: non-embedded (Python) and embedded (C) parts.
struct LineCode {
  std::string python, c;
};
inline LineCode code_of(const code::SourceLine &l) {
  LineCode out;
  for (const auto &s : l.spans) {
    if (s.kind != code::SpanKind::Code) continue;
    (s.embedded ? out.c : out.python) += std::string(l.text.substr(s.begin, s.end - s.begin)) + " ";
  }
  return out;
}

inline std::vector<std::string> reads_of(const std::string &code) {
  std::vector<std::string> out;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < code.size();) {
    if (!(std::isalpha(static_cast<unsigned char>(code[i])) || code[i] == '_') || (i > 0 && ident(code[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < code.size() && ident(code[j])) ++j;
    std::size_t p = i;
    while (p > 0 && code[p - 1] == ' ') --p;
    bool member = (p > 0 && code[p - 1] == '.') || (p > 1 && code.compare(p - 2, 2, "->") == 0) ||
                  (p > 1 && code.compare(p - 2, 2, "::") == 0);
    std::size_t q = j;
    while (q < code.size() && code[q] == ' ') ++q;
    bool keyword_arg = q < code.size() && code[q] == '=' && (q + 1 >= code.size() || code[q + 1] != '=') && p > 0 &&
                       (code[p - 1] == '(' || code[p - 1] == ',');
    if (!member && !keyword_arg) out.push_back(code.substr(i, j - i));
    i = j;
  }
  return out;
}

} // namespace quoted_detail

inline QuotedCodeCheck check_quoted_code(const std::string &file, const std::string &kernel, const std::string &snippet,
                                         const std::string &dispatch) {
  using namespace quoted_detail;
  QuotedCodeCheck out;
  auto lines = lines_of(file);
  auto lexed = code::lex_source(file, code::Language::Python);
  const std::size_t n = std::min(lines.size(), lexed.size());

  // Each field's lines, matched in file order: a run of consecutive
  // non-blank quoted lines is a block of consecutive lines of the file (a
  // blank line separates what the file does not hold together).
  for (const auto &[field, text] : {std::pair<std::string, std::string>{"snippet", snippet}, {"dispatch", dispatch}}) {
    std::vector<std::vector<std::string>> runs(1);
    for (const auto &q : lines_of(text)) {
      if (trimmed(q).empty()) {
        if (!runs.back().empty()) runs.emplace_back();
        continue;
      }
      runs.back().push_back(q);
    }
    std::size_t at = 0;
    for (const auto &run : runs) {
      if (run.empty()) continue;
      std::size_t k = at;
      for (; k + run.size() <= n; ++k)
        if (std::equal(run.begin(), run.end(), lines.begin() + static_cast<std::ptrdiff_t>(k))) break;
      if (k + run.size() > n) {
        out.problems.push_back(field + ": not a block of the file's lines after the ones before it: " + run.front());
        continue;
      }
      for (std::size_t i = 0; i < run.size(); ++i) out.quoted.insert(k + i);
      at = k + run.size();
    }
  }

  // Per file line: its code, its Python bracket depth at start, whether it
  // starts inside a string, its C brace depth at start.
  std::vector<LineCode> code(n);
  std::vector<int> py_depth(n + 1, 0), c_depth(n + 1, 0);
  std::vector<bool> in_string(n, false);
  {
    bool inside = false;
    for (std::size_t i = 0; i < n; ++i) {
      code[i] = code_of(lexed[i]);
      in_string[i] = inside;
      int d = py_depth[i], b = c_depth[i];
      for (char ch : code[i].python) d += (ch == '(' || ch == '[' || ch == '{') - (ch == ')' || ch == ']' || ch == '}');
      for (char ch : code[i].c) b += (ch == '{') - (ch == '}');
      py_depth[i + 1] = d;
      c_depth[i + 1] = b;
      std::size_t quotes = 0;
      for (const auto &s : lexed[i].spans) {
        auto t = lexed[i].text.substr(s.begin, s.end - s.begin);
        for (auto p = t.find("\"\"\""); p != std::string_view::npos; p = t.find("\"\"\"", p + 3)) ++quotes;
        for (auto p = t.find("'''"); p != std::string_view::npos; p = t.find("'''", p + 3)) ++quotes;
      }
      if (quotes % 2) inside = !inside;
    }
  }

  // What the file defines at its top level, by name: the defining lines.
  static const text::Regex py_assign(R"(^([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=))");
  static const text::Regex py_def(R"(^(?:async\s+)?(?:def|class)\s+(\w+))");
  static const text::Regex py_import(R"(^import\s+([\w.]+)(?:\s+as\s+(\w+))?)");
  static const text::Regex py_from(R"(^from\s+\S+\s+import\s+(.+))");
  static const text::Regex c_define(R"(^\s*#\s*define\s+(\w+))");
  static const text::Regex c_call(R"(\b(\w+)\s*\()");
  static const text::Regex c_var(R"(\b(\w+)\s*(?:\[[^\]]*\]\s*)?(?:=[^=]|;))");
  std::map<std::string, std::vector<std::size_t>> defined;
  for (std::size_t i = 0; i < n; ++i) {
    const auto &l = lines[i];
    if (!in_string[i] && py_depth[i] == 0 && !l.empty() && l[0] != ' ' && l[0] != '\t') {
      auto py = trimmed(code[i].python);
      if (auto m = py_def.search(py))
        defined[std::string((*m)[1])].push_back(i);
      else if (auto m = py_import.search(py))
        defined[std::string((*m)[2].empty() ? (*m)[1].substr(0, (*m)[1].find('.')) : (*m)[2])].push_back(i);
      else if (auto m = py_from.search(py)) {
        for (auto part : lines_of(std::string((*m)[1]))) {
          std::string names = part;
          std::replace(names.begin(), names.end(), ',', '\n');
          for (auto one : lines_of(names)) {
            auto t = trimmed(one);
            auto as = t.find(" as ");
            if (as != std::string::npos) t = trimmed(t.substr(as + 4));
            if (!t.empty() && t != "(" && t != ")") defined[t].push_back(i);
          }
        }
      } else if (auto m = py_assign.search(py))
        defined[std::string((*m)[1])].push_back(i);
    }
    auto c = trimmed(code[i].c);
    if (c.empty() || c_depth[i] != 0) continue;
    if (auto m = c_define.search(c)) {
      defined[std::string((*m)[1])].push_back(i);
      continue;
    }
    if (c[0] == '#') continue;
    bool named = false;
    for (const auto &m : c_call.find_all(c)) {
      std::string name(m[1]);
      if (name.starts_with("__") || name == "template") continue;
      defined[name].push_back(i);
      named = true;
      break;
    }
    if (!named && c.find('(') == std::string::npos)
      if (auto m = c_var.search(c)) defined[std::string((*m)[1])].push_back(i);
  }

  // Every name a quoted line reads that the file defines has a quoted
  // definition, unless a quoted line binds it itself (a local of the kernel:
  // an assignment, a loop variable, a parameter; a lambda's parameter).
  static const text::Regex assigned(R"(^\s*([A-Za-z_][\w\s,]*?)\s*(?::[^=]*)?[-+*/]?=(?!=))");
  static const text::Regex loop(R"(\bfor\s+([\w\s,]+?)\s+in\b)");
  static const text::Regex params(R"(\bdef\s+\w+\s*\(([^)]*))");
  std::set<std::string> reads, bound;
  for (auto i : out.quoted) {
    for (const auto &r : reads_of(code[i].python)) reads.insert(r);
    for (const auto &r : reads_of(code[i].c)) reads.insert(r);
    auto py = code[i].python;
    static const text::Regex lambda(R"(\blambda\s+(\w+))");
    lambda.for_each_match(py, [&](const text::Match &m) { bound.insert(std::string(m[1])); });
    if (lines[i].empty() || lines[i][0] != ' ') continue; // top-level names are the definitions checked
    for (const auto *re : {&assigned, &loop, &params})
      re->for_each_match(py, [&](const text::Match &m) {
        std::string names(m[1]);
        for (auto &ch : names)
          if (ch == ',' || ch == ':' || ch == '=') ch = '\n';
        for (const auto &one : lines_of(names)) {
          auto t = trimmed(one);
          auto sp = t.find(' ');
          if (!t.empty()) bound.insert(sp == std::string::npos ? t : t.substr(0, sp));
        }
      });
  }
  for (const auto &r : reads) {
    auto it = defined.find(r);
    if (it == defined.end() || bound.count(r)) continue;
    bool any = std::any_of(it->second.begin(), it->second.end(), [&](std::size_t i) { return out.quoted.count(i); });
    if (!any)
      out.problems.push_back("reads '" + r + "' but quotes no definition of it (line " +
                             std::to_string(it->second.front() + 1) + ": " + lines[it->second.front()] + ")");
  }

  // Quoted top-level defs come whole: every decorator line, every body line.
  for (auto i : out.quoted) {
    if (in_string[i] || py_depth[i] != 0 || !py_def.search(trimmed(code[i].python)) || lines[i][0] == ' ') continue;
    for (std::size_t k = i; k > 0;) {
      --k;
      bool decorator = !in_string[k] && (py_depth[k] > 0 || trimmed(lines[k]).starts_with("@"));
      if (!decorator) break;
      if (!out.quoted.count(k) && !trimmed(lines[k]).empty())
        out.problems.push_back("decorator line not quoted: " + lines[k]);
    }
    for (std::size_t k = i + 1; k < n; ++k) {
      if (trimmed(lines[k]).empty()) continue;
      bool inside = in_string[k] || py_depth[k] > 0 || lines[k][0] == ' ' || lines[k][0] == '\t';
      if (!inside) break;
      if (!out.quoted.count(k)) out.problems.push_back("body line not quoted: " + lines[k]);
    }
  }

  // Balance over the quoted lines in file order.
  int depth = 0, braces = 0;
  std::size_t quotes = 0;
  for (auto i : out.quoted) {
    for (char ch : code[i].python)
      depth += (ch == '(' || ch == '[' || ch == '{') - (ch == ')' || ch == ']' || ch == '}');
    for (char ch : code[i].c) braces += (ch == '{') - (ch == '}');
    for (auto p = lines[i].find("\"\"\""); p != std::string::npos; p = lines[i].find("\"\"\"", p + 3)) ++quotes;
    if (depth < 0 || braces < 0) out.problems.push_back("a bracket closes that the quote never opened: " + lines[i]);
    depth = std::max(depth, 0);
    braces = std::max(braces, 0);
  }
  if (depth != 0) out.problems.push_back("the quoted Python leaves a bracket open");
  if (braces != 0) out.problems.push_back("the quoted C leaves a brace open");
  if (quotes % 2) out.problems.push_back("the quoted Python leaves a triple-quoted string open");

  // The dispatch launches the kernel.
  text::Regex launch("\\b" + kernel + R"(\s*(?:\[|<<<))");
  if (!launch.contains(dispatch)) out.problems.push_back("the dispatch does not launch " + kernel);
  return out;
}

// Whether the quoted code names `name` anywhere as an identifier.
inline bool quotes_name(const std::string &quoted, const std::string &name) {
  text::Regex r("(?<![\\w.])" + name + "(?!\\w)");
  return r.contains(quoted);
}

} // namespace otm::testsupport
