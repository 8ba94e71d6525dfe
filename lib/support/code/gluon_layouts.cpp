#include "code/gluon_layouts.hpp"

#include <map>
#include <set>

#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

// The number of dimensions of the first list literal after `at` in `s`
// (`[VEC]` -> 1, `[1, VEC]` -> 2); 0 when there is none.
std::size_t first_list_rank(std::string_view s) {
  auto open = s.find('[');
  if (open == std::string_view::npos) return 0;
  std::size_t rank = 1;
  int depth = 0;
  for (std::size_t i = open + 1; i < s.size(); ++i) {
    char ch = s[i];
    if (ch == '[' || ch == '(') ++depth;
    if (ch == ')') --depth;
    if (ch == ']' && depth-- == 0) return rank;
    if (ch == ',' && depth == 0) ++rank;
  }
  return 0;
}

} // namespace

std::string UnslicedExpand::why() const {
  return "expands `" + tensor + "` (an arange in the one-dimensional BlockedLayout `" + layout + "`) with `" + use +
         "`, but Gluon's expand_dims takes only a tensor in a SliceLayout: it cannot compile";
}

std::optional<UnslicedExpand> expand_of_an_unsliced_tensor(std::string_view source) {
  if (source.find("BlockedLayout") == std::string_view::npos) return std::nullopt;
  static const text::Regex layout_def(
      R"(^\s*([A-Za-z_]\w*)\s*(?::\s*[\w.]+\s*)?=\s*(?:\w+\.)*BlockedLayout\s*\((.*)$)");
  static const text::Regex assignment(R"(^\s*([A-Za-z_]\w*)\s*(?::\s*[\w.]+\s*)?=(?!=)\s*(.*)$)");
  static const text::Regex arange_layout(R"(\barange\s*\(.*\blayout\s*=\s*([A-Za-z_]\w*)\b)");
  std::set<std::string> one_d;
  std::map<std::string, std::string> tensors; // name -> its 1-D blocked layout, as the lines go
  for (auto line : text::split_lines(source)) {
    for (const auto &[name, layout] : tensors) {
      const text::Regex use(R"((?<![\w.]))" + name + R"(\s*\[\s*(?::\s*,\s*None|None\s*,\s*:)\s*\]|)" +
                            R"(expand_dims\s*\(\s*)" + name + R"(\s*,)");
      if (auto m = use.search(line)) return UnslicedExpand{name, layout, std::string(text::strip((*m)[0]))};
    }
    if (auto m = layout_def.search(line)) {
      if (first_list_rank((*m)[2]) == 1) one_d.insert(std::string((*m)[1]));
      continue;
    }
    // A name bound again (`tok = gl.convert_layout(tok, ...)`) is no
    // longer the arange's tensor.
    if (auto m = assignment.search(line)) {
      std::string name((*m)[1]);
      tensors.erase(name);
      if (auto a = arange_layout.search((*m)[2]); a && one_d.count(std::string((*a)[1])))
        tensors.emplace(name, std::string((*a)[1]));
    }
  }
  return std::nullopt;
}

} // namespace otm::code
