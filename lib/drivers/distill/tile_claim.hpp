// A tile size a mechanism states, checked against the tile sizes the
// kernel after the change sets (kit 24: "two warpgroups split the 128-wide
// tile so each issues half the MMAs" on a kernel whose BLOCK_M and BLOCK_N
// are 64). The `tile_claims` section says which words state a tile size
// and which names are tile sizes:
//   "tile_claims": {
//     "claims": ["\\d+-wide tiles?", "\\d+\\s*[x×]\\s*\\d+ tiles?", ...],
//     "tile_names": ["BLOCK_[MN]", "TILE_[MN]", "B[MN]", "BLOCK(?:_SIZE)?"]
//   }
// Such a cause is contradicted when the code sets some tile size to a
// whole number (code::tile_constants) and a number the claim states is none
// of them. A kernel whose tile sizes are all expressions decides nothing.
//
//   auto rule = TileClaimRule::from_json(config.data().get("tile_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, code_after)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class TileClaimRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static TileClaimRule from_json(const json::Value &section, std::string_view where);
  // `code_after`: the kernel file after the change.
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view code_after) const;

private:
  std::shared_ptr<const text::Regex> claims_, tile_names_;
};

} // namespace otm::distill
