#include "code/unguarded_tile_loops.hpp"

#include <optional>
#include <set>
#include <utility>

#include "code/c_loops.hpp"
#include "code/source_reading.hpp"
#include "code/tile_constants.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

// The loop's condition: `VAR < NAME` (or `<=`), the second clause of a
// `for` header.
std::optional<std::pair<std::string, std::string>> compared_names(std::string_view header) {
  static const text::Regex condition(R"(^\s*for\s*\([^;]*;\s*([A-Za-z_]\w*)\s*<=?\s*([A-Za-z_]\w*)\s*;)");
  auto m = condition.search(header);
  if (!m) return std::nullopt;
  return std::make_pair(std::string((*m)[1]), std::string((*m)[2]));
}

bool mentions(std::string_view code, const std::string &name) {
  return text::Regex("\\b" + name + "\\b").contains(code);
}

} // namespace

std::vector<UnguardedTileLoop> unguarded_tile_loops(std::string_view source, Language language) {
  std::vector<UnguardedTileLoop> out;
  // The C code as one text, with the 0-based line each byte came from.
  const auto lexed = lex_source(source, language);
  std::string text;
  std::vector<std::size_t> line_of;
  for (std::size_t i = 0; i < lexed.size(); ++i) {
    text += code_of(lexed[i], language).c + "\n";
    line_of.resize(text.size(), i);
  }
  if (text.find("for") == std::string::npos) return out;
  // A name the file gives one integer value is a constant; any other is a size.
  auto constant = [&](const std::string &name) {
    std::set<long long> given;
    for (const auto &[n, v] : tile_constants(source, text::Regex("^" + name + "$"))) given.insert(v);
    return given.size() == 1 && *given.begin() > 1;
  };
  static const text::Regex access(R"(\[|reinterpret_cast|\*\s*\(\s*\w+\s*\+)");
  const auto loops = c_loops(text, false);
  for (const auto &tile : loops) {
    const std::string_view header = std::string_view(text).substr(tile.head, tile.header_end + 1 - tile.head);
    auto tile_names = compared_names(header);
    if (!tile_names || !constant(tile_names->second)) continue;
    const std::string_view tile_body = std::string_view(text).substr(tile.begin, tile.end - tile.begin);
    if (!access.contains(tile_body)) continue;
    // The loop around it that walks a size.
    for (const auto &walk : loops) {
      if (!(walk.begin < tile.head && tile.end <= walk.end)) continue;
      auto walk_names = compared_names(std::string_view(text).substr(walk.head, walk.header_end + 1 - walk.head));
      if (!walk_names || constant(walk_names->second)) continue;
      // A walk in tiles of the block (`blk = blockIdx.x * CHUNK`, `blk +=
      // gridDim.x * CHUNK`): a walk over rows (`row += gridDim.x`) whose
      // rows are the block wide has no tail of it.
      const auto walk_header = std::string_view(text).substr(walk.head, walk.header_end + 1 - walk.head);
      bool in_tiles = mentions(walk_header, tile_names->second);
      static const text::Regex step(R"(\+=\s*([A-Za-z_]\w*)\s*\))");
      if (auto m = step.search(walk_header); !in_tiles && m)
        in_tiles =
            text::Regex("\\b" + std::string((*m)[1]) + "\\s*=[^;]*\\b" + tile_names->second + "\\b").contains(text);
      if (!in_tiles) continue;
      const std::string &size = walk_names->second;
      if (mentions(std::string_view(text).substr(walk.begin, walk.end - walk.begin), size)) continue;
      std::string head(text::strip(header));
      static const text::Regex spaces(R"(\s+)");
      out.push_back({line_of[tile.head] + 1, spaces.replace(head, " "), tile_names->second, size});
      break;
    }
  }
  return out;
}

} // namespace otm::code
