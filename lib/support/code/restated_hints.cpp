#include "code/restated_hints.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "text/regex.hpp"

namespace otm::code {

namespace {

// The smallest hint value that cannot narrow a load: a hint replaces what
// the compiler derived, so `tl.multiple_of(cols, 4)` on an arange of 2048
// caps an fp16 load at 8 bytes (round 11: the next step's 4 -> 8 gained
// 1.1 %). 8 elements fill a 16-byte load of 2-byte data; a smaller number
// is a change that runs (it narrows), so it is not read as a restatement.
constexpr long kMinRestatingHint = 8;

// `NAME = tl.max_contiguous(tl.multiple_of(NAME, 8), 8)`: NAME when the
// right-hand side is only hints (Triton's or Gluon's) wrapped around NAME,
// and `values` each hint's value, as written.
struct HintOnItself {
  std::string name;
  std::vector<std::string> values;
};
std::optional<HintOnItself> hint_on_itself(std::string_view code) {
  static const text::Regex assign(R"(^\s*([A-Za-z_]\w*)\s*=(?!=)\s*(.*?)\s*$)");
  static const text::Regex hint(
      R"(^(?:tl|gl|ttgl|triton\.language)\.(?:multiple_of|max_contiguous|max_constancy)\s*\(\s*(.*?)\s*,\s*([^,()]*?)\s*\)$)");
  auto m = assign.search(code);
  if (!m) return std::nullopt;
  HintOnItself out{std::string((*m)[1]), {}};
  std::string rhs((*m)[2]);
  while (auto h = hint.search(rhs)) {
    out.values.emplace_back((*h)[2]);
    rhs = std::string((*h)[1]);
  }
  if (out.values.empty() || rhs != out.name) return std::nullopt;
  return out;
}

// Whether a hint's value restates an arange of `length`: the length itself
// (`BLOCK_N` for `tl.arange(0, BLOCK_N)`), or a number no smaller than
// kMinRestatingHint.
bool restates(const std::string &value, const std::string &length) {
  if (value == length) return true;
  static const text::Regex number(R"(^\d+$)");
  return number.contains(value) && value.size() < 10 && std::stol(value) >= kMinRestatingHint;
}

// `NAME = tl.arange(0, L)` (Gluon's with its layout too), or `start +
// tl.arange(0, L)` for the `start` of an enclosing `for start in range(0,
// n, L)`: the compiler knows such offsets are contiguous and start on a
// multiple of L (a power of two: arange demands one), as far as any hint on
// them could say. `loop_head(k)`: the statement that encloses line k.
// The arange's length L when it is one, as written.
template <typename LoopHead>
std::optional<std::string> aligned_arange_length(std::string_view code, LoopHead loop_head) {
  static const text::Regex arange(
      R"(^\s*[A-Za-z_]\w*\s*=(?!=)\s*(?:([A-Za-z_]\w*)\s*\+\s*)?)"
      R"((?:tl|gl|ttgl|triton\.language)\.arange\s*\(\s*0\s*,\s*([A-Za-z_]\w*|\d+)\s*[,)](.*)$)");
  auto m = arange.search(code);
  if (!m) return std::nullopt;
  std::string rest((*m)[3]);
  if (rest.find('+') != std::string::npos || rest.find('*') != std::string::npos)
    return std::nullopt; // more than an arange
  const std::string length((*m)[2]);
  if (!m->has(1)) return length;
  const std::string start((*m)[1]);
  const text::Regex loop(R"(^\s*for\s+)" + start + R"(\s+in\s+(?:(?:tl|gl)\.)?range\s*\(\s*0\s*,[^,]+,\s*)" + length +
                         R"(\s*[,)])");
  auto head = loop_head();
  if (head && loop.contains(*head)) return length;
  return std::nullopt;
}

} // namespace

// Hints on a name last bound, in the same block, to an arange from 0.
void mark_restated_hints(const Reading &r, const std::vector<Definition> &statements,
                         const std::vector<bool> &statement_dead, InertCode &out) {
  for (std::size_t s = 0; s < statements.size(); ++s) {
    const auto &st = statements[s];
    if (statement_dead[s] || st.end != st.begin + 1 || out.lines[st.begin] != InertCode::Why::Live) continue;
    auto hint = hint_on_itself(r.code[st.begin].python);
    if (!hint) continue;
    const std::string *name = &hint->name;
    const std::size_t indent = indent_of(r.lexed[st.begin].text);
    for (std::size_t k = st.begin; k-- > 0;) {
      if (!r.starts[k] || out.lines[k] == InertCode::Why::NotCode) continue;
      if (indent_of(r.lexed[k].text) < indent) break; // left the block
      auto defined = names_defined_by(r.code[k].python, true);
      if (indent_of(r.lexed[k].text) > indent || std::find(defined.begin(), defined.end(), *name) == defined.end())
        continue;
      auto enclosing = [&, k]() -> std::optional<std::string> {
        const std::size_t inner = indent_of(r.lexed[k].text);
        for (std::size_t j = k; j-- > 0;)
          if (r.starts[j] && out.lines[j] != InertCode::Why::NotCode && indent_of(r.lexed[j].text) < inner)
            return r.code[j].python;
        return std::nullopt;
      };
      auto length = aligned_arange_length(r.code[k].python, enclosing);
      if (length && std::all_of(hint->values.begin(), hint->values.end(),
                                [&](const std::string &v) { return restates(v, *length); })) {
        out.lines[st.begin] = InertCode::Why::RestatedHint;
        out.owner[st.begin] = *name;
        if (std::find(out.restated_hints.begin(), out.restated_hints.end(), *name) == out.restated_hints.end())
          out.restated_hints.push_back(*name);
      }
      break;
    }
  }
}

} // namespace otm::code
