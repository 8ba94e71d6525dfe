#include "code/single_tile_spans.hpp"

#include <algorithm>

#include "code/tile_constants.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::vector<SingleTileSpan> single_tile_spans(std::string_view source) {
  static const text::Regex made(R"(^\s*([A-Za-z_]\w*)\s*=\s*(?:tl|gl)\.arange\(\s*0\s*,\s*([A-Za-z_]\w*)\s*[,)])");
  static const text::Regex loop(R"(^\s*(?:for|while)\b)");
  const auto lines = text::split_lines(source);
  std::vector<SingleTileSpan> out;
  for (const auto line : lines) {
    auto m = made.search(line);
    if (!m) continue;
    const std::string offsets((*m)[1]), block((*m)[2]);
    // Moved off zero anywhere (`cols = start + cols`, `cols += BLOCK_N`):
    // a walk, not one tile.
    const text::Regex moved("^\\s*" + offsets + "\\s*(?:\\+=|=[^=].*\\+)");
    const text::Regex masked("\\b" + offsets + "\\s*<\\s*([A-Za-z_]\\w*)\\b");
    std::string size;
    bool walks = false;
    for (const auto other : lines) {
      if (other == line) continue;
      if (moved.contains(other) && other.find("arange") == std::string_view::npos) walks = true;
      if (auto mm = masked.search(other); mm && size.empty()) size = std::string((*mm)[1]);
    }
    if (walks || size.empty() || size == block) continue;
    const text::Regex names("\\b(?:" + size + "|" + block + ")\\b");
    bool looped = false;
    for (const auto other : lines)
      if (loop.contains(other) && names.contains(other)) looped = true;
    if (looped) continue;
    const auto values = values_given(source, block);
    const long long largest = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
    if (largest <= 1) continue;
    out.push_back({std::string(text::strip(line)), block, size, largest});
  }
  return out;
}

} // namespace otm::code
