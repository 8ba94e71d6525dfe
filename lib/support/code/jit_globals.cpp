#include "code/jit_globals.hpp"

#include <set>

#include "code/module_outline.hpp"
#include "text/regex.hpp"

namespace otm::code {
namespace {

// The outline's line text is its tokens, space-separated.
std::string text_of(const ModuleOutline &outline, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end && i < outline.lines.size(); ++i) out += outline.lines[i].python + "\n";
  return out;
}

// Lines [begin, end) of the source, as written.
std::string source_lines(std::string_view source, std::size_t begin, std::size_t end) {
  std::size_t line = 0, from = 0;
  std::string out;
  while (from <= source.size() && line < end) {
    auto nl = source.find('\n', from);
    auto to = nl == std::string_view::npos ? source.size() : nl + 1;
    if (line >= begin) out.append(source.substr(from, to - from));
    if (nl == std::string_view::npos) break;
    from = to;
    ++line;
  }
  return out;
}

// `NAME = tl.constexpr(...)`, `NAME = constexpr(...)`.
bool binds_a_constexpr(const ModuleOutline &outline, const PythonStatement &s) {
  static const text::Regex value(R"(^\s*[A-Za-z_]\w*\s*=\s*(?:[A-Za-z_]\w*\s*\.\s*)*constexpr\s*\()");
  return value.contains(text_of(outline, s.begin, s.end));
}

} // namespace

bool is_jit_function(const ModuleOutline &outline, const PythonStatement &s) {
  static const text::Regex decorator(R"((?m)^\s*@\s*(?:[A-Za-z_]\w*\s*\.\s*)*jit\s*(?:\(.*)?$)");
  return s.kind == PythonStatement::Kind::Function && decorator.contains(text_of(outline, s.begin, s.header));
}

std::vector<std::string> non_constexpr_globals_read_by_jit(std::string_view python_source) {
  auto outline = outline_module(python_source);
  std::set<std::string> plain, other, read;
  for (const auto &s : outline.statements) {
    if (s.wildcard) return {};
    bool plain_value = s.kind == PythonStatement::Kind::Assignment && !binds_a_constexpr(outline, s);
    (plain_value ? plain : other).insert(s.binds.begin(), s.binds.end());
    if (is_jit_function(outline, s)) {
      // The body's reads: a decorator's arguments (`configs=CONFIGS`) are
      // Python's, evaluated before Triton sees the function.
      auto body = outline_module(source_lines(python_source, s.header, s.end));
      for (const auto &b : body.statements) read.insert(b.reads.begin(), b.reads.end());
    }
  }
  std::vector<std::string> out;
  for (const auto &n : read)
    if (plain.count(n) && !other.count(n)) out.push_back(n);
  return out;
}

} // namespace otm::code
