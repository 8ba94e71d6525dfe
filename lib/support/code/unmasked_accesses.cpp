#include "code/unmasked_accesses.hpp"

#include <set>

#include "code/identifiers.hpp"
#include "code/source_lexer.hpp"
#include "text/regex.hpp"

namespace otm::code {

namespace {

// Each line's code, comments and literals blanked.
std::vector<std::string> code_lines(std::string_view source) {
  std::vector<std::string> out;
  for (const auto &line : lex_source(source, Language::Python)) {
    std::string code(line.text);
    for (const auto &s : line.spans)
      if (s.kind != SpanKind::Code)
        for (std::size_t i = s.begin; i < s.end && i < code.size(); ++i) code[i] = ' ';
    out.push_back(std::move(code));
  }
  return out;
}

std::size_t indent_of(const std::string &line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

bool reads_any(std::string_view code, const std::set<std::string> &names) {
  for (const auto &id : identifier_spans(code))
    if (names.count(std::string(code.substr(id.begin, id.end - id.begin)))) return true;
  return false;
}

} // namespace

std::vector<UnmaskedAccess> unmasked_block_accesses(std::string_view python_source) {
  static const text::Regex assignment(R"(^\s*([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.+)$)");
  static const text::Regex arange(R"(\b(?:tl|gl)\.arange\s*\()");
  static const text::Regex access(R"(\b((?:tl|gl)\.(?:load|store))\s*\()");
  static const text::Regex evenness(R"((?i)^\s*(?:el)?if\b.*\b\w*(?:even|divisib|aligned|no_?mask)\w*)");
  const auto lines = code_lines(python_source);
  // Names holding a block of offsets: assigned from `arange`, or from an
  // expression of such names (to a fixed point; the file as one scope).
  std::set<std::string> block;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto &l : lines)
      if (auto m = assignment.search(l); m && !block.count(std::string((*m)[1])))
        if (arange.contains((*m)[2]) || reads_any((*m)[2], block)) grew = block.insert(std::string((*m)[1])).second;
  }
  std::vector<UnmaskedAccess> out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (const auto &m : access.find_all(lines[i])) {
      // The call's arguments, to the bracket that closes it (over lines).
      std::string args;
      int depth = 1;
      std::size_t j = i, k = m.end;
      for (; j < lines.size() && depth > 0; ++j, k = 0) {
        for (; k < lines[j].size() && depth > 0; ++k) {
          const char c = lines[j][k];
          if (c == '(' || c == '[' || c == '{') ++depth;
          if ((c == ')' || c == ']' || c == '}') && --depth == 0) break;
          args += c;
        }
        if (depth > 0) args += ' ';
      }
      if (args.find("mask") != std::string::npos || args.find("boundary_check") != std::string::npos) continue;
      // The pointer: the first argument.
      std::string pointer;
      int nested = 0;
      for (char c : args) {
        if (c == '(' || c == '[' || c == '{') ++nested;
        if (c == ')' || c == ']' || c == '}') --nested;
        if (nested == 0 && c == ',') break;
        pointer += c;
      }
      if (!arange.contains(pointer) && !reads_any(pointer, block)) continue;
      // In a branch on evenness, the caller decides.
      bool guarded = false;
      for (std::size_t up = i, want = indent_of(lines[i]); up-- > 0 && want > 0;) {
        if (lines[up].find_first_not_of(" \t") == std::string::npos || indent_of(lines[up]) >= want) continue;
        want = indent_of(lines[up]);
        if (evenness.contains(lines[up])) guarded = true;
        if (lines[up].find("def ") != std::string::npos) break;
      }
      if (!guarded) out.push_back({i, std::string(m[1])});
    }
  return out;
}

} // namespace otm::code
