#include "distill/tile_claim.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "code/tile_constants.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::distill {

TileClaimRule TileClaimRule::from_json(const json::Value &section, std::string_view where) {
  TileClaimRule r;
  const auto section_name = levers::rule_section(section, where, "tile_claims");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, here);
  r.tile_names_ = levers::whole_token_regex_at(section, "tile_names", false, here);
  return r;
}

std::optional<std::string> TileClaimRule::contradiction(const std::string &mechanism,
                                                        std::string_view code_after) const {
  if (!claims_ || !tile_names_ || code_after.empty()) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim) return std::nullopt;
  const auto tiles = code::tile_constants(code_after, *tile_names_);
  if (tiles.empty()) return std::nullopt;
  static const text::Regex number(R"(\d+)");
  const std::string said((*claim)[0]);
  for (const auto &m : number.find_all(said)) {
    long long n = 0;
    const auto digits = m[0];
    if (std::from_chars(digits.data(), digits.data() + digits.size(), n).ec != std::errc()) continue;
    if (std::any_of(tiles.begin(), tiles.end(), [&](const auto &t) { return t.second == n; })) continue;
    std::string set;
    for (std::size_t i = 0; i < tiles.size() && i < 4; ++i)
      set += (i ? ", " : "") + std::string("`") + tiles[i].first + " = " + std::to_string(tiles[i].second) + "`";
    return "the mechanism states a tile of " + std::to_string(n) + " (\"" + said +
           "\"), but the kernel after the change sets its tile sizes to " + set;
  }
  return std::nullopt;
}

} // namespace otm::distill
