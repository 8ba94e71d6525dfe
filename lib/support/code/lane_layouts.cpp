#include "code/lane_layouts.hpp"

#include <set>
#include <vector>

#include "code/source_reading.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::string LaneLayoutMismatch::why() const {
  return "fills `" + array + "` from a vector load stepping `" + load +
         "` (each lane holds consecutive elements), then reads it labelled `" + label +
         "` (as if each lane held every 32nd): every element it names is another one";
}

std::optional<LaneLayoutMismatch> blocked_fill_read_cyclically(std::string_view source, Language language) {
  if (source.find("lane") == std::string_view::npos) return std::nullopt;
  const auto lexed = lex_source(source, language);
  std::vector<std::string> lines(lexed.size());
  for (std::size_t i = 0; i < lexed.size(); ++i) lines[i] = code_of(lexed[i], language).c;
  // The per-lane step of a vector load's address: `lane * 4`, `lane * VEC`.
  static const text::Regex blocked(R"(\blane\s*\*\s*(?:[2-9]|\d{2,}|[A-Z_][A-Z0-9_]*)\b)");
  static const text::Regex component_fill(R"(\b([A-Za-z_]\w*)\s*\[[^\]]+\]\s*=\s*[^;]*\b\w+\s*\.\s*[xyzw]\b)");
  static const text::Regex cyclic(R"(\blane\s*\+\s*(?:32|warpSize|WARP_SIZE|kWarpSize)\s*\*\s*([A-Za-z_]\w*)|)"
                                  R"(\b(?:32|warpSize|WARP_SIZE|kWarpSize)\s*\*\s*([A-Za-z_]\w*)\s*\+\s*lane\b)");
  static const text::Regex function_start(R"(\b__(?:global|device)__\b)");
  std::set<std::string> filled;
  std::string step;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto &l = lines[i];
    if (function_start.contains(l)) filled.clear(), step.clear();
    // A fill: a load stepping lane * K on this line or the two before it
    // (the raw vector is loaded, then its components are stored).
    if (auto f = component_fill.search(l)) {
      for (std::size_t k = i >= 2 ? i - 2 : 0; k <= i; ++k)
        if (auto b = blocked.search(lines[k])) {
          filled.insert(std::string((*f)[1]));
          step = std::string(text::strip((*b)[0]));
        }
    }
    if (filled.empty()) continue;
    if (auto c = cyclic.search(l)) {
      const std::string index((*c)[1].empty() ? (*c)[2] : (*c)[1]);
      for (const auto &a : filled) {
        const text::Regex read(R"re((?<![\w.]))re" + a + R"re(\s*\[\s*)re" + index + R"re(\s*\])re");
        if (read.contains(l)) return LaneLayoutMismatch{i + 1, a, step, std::string(text::strip((*c)[0]))};
      }
    }
  }
  return std::nullopt;
}

} // namespace otm::code
