#include "code/compile_errors.hpp"

#include <map>
#include <set>

#include "code/identifiers.hpp"
#include "code/source_lexer.hpp"
#include "code/source_reading.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

// Each line's code by reader (code/source_reading.hpp).
std::vector<LineCode> split_lines(const std::vector<SourceLine> &lexed) {
  std::vector<LineCode> out;
  out.reserve(lexed.size());
  for (const auto &l : lexed) out.push_back(code_of(l, Language::Python));
  return out;
}

// Whether Python %-formats an embedded source: a `%` right after a string's
// closing quotes, or after a name a source string is assigned to.
bool python_formats_source(const std::vector<SourceLine> &lexed, const std::vector<LineCode> &lines) {
  static const text::Regex assigns(R"(^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*\(?\s*[rRbBuUfF]*(?:'''|"""|'|"))");
  static const text::Regex after_quotes(R"((?:'''|"""|['"])\s*\)?\s*%\s*[(\w{])");
  std::set<std::string> names;
  for (std::size_t i = 0; i + 1 < lexed.size(); ++i)
    if (auto m = assigns.search(lexed[i].text); m && !lines[i + 1].c.empty()) names.emplace((*m)[1]);
  for (std::size_t i = 0; i < lexed.size(); ++i) {
    if (lines[i].python.empty()) continue;
    if (after_quotes.contains(lines[i].python)) return true;
    for (const auto &n : names)
      if (text::Regex("\\b" + n + R"(\s*%\s*[(\w{])").contains(lines[i].python)) return true;
  }
  return false;
}

const char *kScalarTypes = R"((?:size_t|ptrdiff_t|int|unsigned|unsigned\s+int|long|long\s+long|unsigned\s+long|)"
                           R"(short|char|bool|float|double|u?int(?:8|16|32|64)_t))";

} // namespace

std::vector<CompileError> cuda_compile_errors(std::string_view python_source) {
  std::vector<CompileError> out;
  const auto lexed = lex_source(python_source, Language::Python);
  const auto lines = split_lines(lexed);
  bool any_c = false;
  for (const auto &l : lines) any_c = any_c || !l.c.empty();
  if (!any_c) return out;

  if (!python_formats_source(lexed, lines)) {
    static const text::Regex percent(R"([^;{}]*%%[^;{}]*)");
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (auto m = percent.search(lines[i].c))
        out.push_back({i + 1, std::string(text::strip((*m)[0])),
                       "`%%` in C++ code: the source is a string Python never %-formats, so the compiler reads "
                       "two `%` operators in a row (a syntax error)"});
  }

  // Declarations, over the whole embedded source: a name declared as an
  // arithmetic scalar, and a name that is (or may be) declared otherwise.
  static const text::Regex scalar_decl(std::string(R"((?:^\s*|[(;,{]\s*|\bconst\s+))") + kScalarTypes +
                                       R"(\s+([A-Za-z_]\w*)\s*(?:=|;|,|\)))");
  static const text::Regex other_decl(
      R"((?:[*&]\s*(?:const\s+|__restrict__\s+|volatile\s+)*|\bauto\s+)([A-Za-z_]\w*)\b)");
  static const text::Regex array_decl(R"(\b[A-Za-z_][\w:<>]*\s+([A-Za-z_]\w*)\s*\[[^\]]*\]\s*(?:;|=\s*\{))");
  std::set<std::string> scalar, other;
  for (const auto &l : lines) {
    if (l.c.empty()) continue;
    scalar_decl.for_each_match(l.c, [&](const text::Match &m) { scalar.emplace(m[1]); });
    other_decl.for_each_match(l.c, [&](const text::Match &m) { other.emplace(m[1]); });
    array_decl.for_each_match(l.c, [&](const text::Match &m) { other.emplace(m[1]); });
  }
  for (const auto &n : other) scalar.erase(n);
  if (scalar.empty()) return out;
  static const text::Regex subscript(R"((?<![\w.>:])([A-Za-z_]\w*)\s*\[)");
  for (std::size_t i = 0; i < lines.size(); ++i)
    subscript.for_each_match(lines[i].c, [&](const text::Match &m) {
      if (!scalar.count(std::string(m[1]))) return;
      out.push_back({i + 1, std::string(m[1]) + "[",
                     "`" + std::string(m[1]) +
                         "` is declared as an arithmetic scalar, which cannot be subscripted (\"expression must have "
                         "pointer-to-object type\")"});
    });
  return out;
}

std::vector<CompileError> gluon_compile_errors(std::string_view python_source, std::string_view problem_dtype) {
  std::vector<CompileError> out;
  static const std::map<std::string, std::string, std::less<>> half_types = {
      {"float16", "float16"}, {"fp16", "float16"}, {"half", "float16"}, {"bfloat16", "bfloat16"}, {"bf16", "bfloat16"}};
  auto problem = half_types.find(problem_dtype);
  if (problem == half_types.end()) return out;
  static const text::Regex allocation(
      R"(^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*(?:gl|ttgl)\.allocate_shared_memory\(\s*(?:gl|ttgl)\.(float16|bfloat16)\b)");
  const auto lexed = lex_source(python_source, Language::Python);
  const auto lines = split_lines(lexed);
  std::map<std::string, std::string> buffers; // name -> its dtype, when not the problem's
  for (const auto &l : lines)
    if (auto m = allocation.search(l.python); m && (*m)[2] != problem->second) buffers[std::string((*m)[1])] = (*m)[2];
  for (const auto &[name, dtype] : buffers) {
    // A value converted to the buffer's type stores fine.
    const text::Regex converts(R"(\.to\(\s*(?:gl|ttgl)\.)" + dtype + R"(\b)");
    const text::Regex store("(?<![\\w.])" + name + R"((?:\.index\([^)]*\))?\.store\()");
    bool converted = false;
    for (const auto &l : lines) converted = converted || converts.contains(l.python);
    if (converted) continue;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (store.contains(lines[i].python)) {
        out.push_back({i + 1, std::string(text::strip(lines[i].python)),
                       "`" + name + "` is a gl." + dtype + " shared buffer, and the problem's data is " +
                           problem->second + " with no conversion to " + dtype +
                           " in the file: Gluon's shared store requires the value's dtype to be the buffer's"});
        break;
      }
  }
  return out;
}

std::vector<CompileError> triton_compile_errors(std::string_view python_source) {
  std::vector<CompileError> out;
  if (python_source.find(".zeros") == std::string_view::npos) return out;
  static const text::Regex half_zeros(
      R"(^(\s*)([A-Za-z_]\w*)\s*=\s*(?:tl|gl|ttgl)\.zeros\(.*\b(?:tl|gl|ttgl)\.(float16|bfloat16)\b)");
  static const text::Regex loop(R"(^(\s*)for\b)");
  static const text::Regex assignment(R"(^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?(\+=|-=|\*=|=(?!=))\s*(.+)$)");
  static const text::Regex float32(R"(\b(?:tl|gl|ttgl)\.float32\b)");
  static const text::Regex dot_to_float32(R"(\b(?:tl|gl|ttgl)\.dot\((?!.*\bout_dtype\b))");
  static const text::Regex back_to_half(R"(\.to\(\s*(?:tl|gl|ttgl)\.(?:float16|bfloat16)\b)");
  const auto lexed = lex_source(python_source, Language::Python);
  const auto lines = split_lines(lexed);
  auto indent = [&](std::size_t i) { return lexed[i].text.find_first_not_of(" \t"); };
  auto blank = [&](std::size_t i) { return lines[i].python.find_first_not_of(' ') == std::string::npos; };
  // Names bound to float32 values: a float32 dtype, or a name bound so.
  std::set<std::string> wide;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto &l : lines)
      if (auto a = assignment.search(l.python); a && !back_to_half.contains((*a)[3])) {
        bool is_wide = float32.contains((*a)[3]) || dot_to_float32.contains((*a)[3]);
        for (const auto &id : identifier_spans((*a)[3]))
          is_wide = is_wide || wide.count(std::string((*a)[3].substr(id.begin, id.end - id.begin)));
        if (is_wide && !half_zeros.contains(l.python)) grew = wide.insert(std::string((*a)[1])).second || grew;
      }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto z = half_zeros.search(lines[i].python);
    if (!z) continue;
    const std::string name((*z)[2]), dtype((*z)[3]);
    const std::size_t level = indent(i);
    // The loops that follow at its level, until the block it is in ends.
    for (std::size_t k = i + 1; k < lines.size(); ++k) {
      if (blank(k)) continue;
      if (indent(k) < level) break;
      if (indent(k) != level || !loop.contains(lines[k].python)) continue;
      for (std::size_t b = k + 1; b < lines.size(); ++b) {
        if (blank(b)) continue;
        if (indent(b) <= level) break;
        auto a = assignment.search(lines[b].python);
        if (!a || (*a)[1] != name || back_to_half.contains((*a)[3])) continue;
        const std::string rhs((*a)[3]);
        std::string widened;
        if (dot_to_float32.contains(rhs)) widened = "`tl.dot`";
        for (const auto &id : identifier_spans(rhs)) {
          std::string read = rhs.substr(id.begin, id.end - id.begin);
          if (widened.empty() && read != name && wide.count(read)) widened = "float32 `" + read + "`";
        }
        if (widened.empty()) continue;
        out.push_back({b + 1, std::string(text::strip(lines[b].python)),
                       "`" + name + "` starts as " + dtype + " (line " + std::to_string(i + 1) + ") and " + widened +
                           " makes it float32 inside the loop: the JIT refuses a loop-carried variable whose type "
                           "changes"});
        return out;
      }
    }
  }
  return out;
}

} // namespace otm::code
