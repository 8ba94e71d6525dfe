// A cause naming a cache level, checked against the cache qualifiers the
// change adds (kit 55, P27: "Stop the streamed operand from polluting L2."
// for a change adding only `.L1::no_allocate`, an L1 eviction-priority
// qualifier: PTX sets L2 policy with its own `.L2::` qualifiers). The
// `cache_level_claims` section names, per level, the words that claim it
// and the code qualifiers that act on it:
//   "cache_level_claims": {
//     "L1": {"claims": ["L1"], "code": ["\\.L1::[\\w:]+"]},
//     "L2": {"claims": ["L2"], "code": ["\\.L2::[\\w:]+"]}
//   }
// Such a cause is contradicted when the change's added running lines hold
// qualifiers of some level and none of a level the cause names (and none
// the cause names are in the code). A change with no level's qualifiers
// decides nothing.
//
//   auto rule = CacheLevelRule::from_json(config.data().get("cache_level_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, added_code)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class CacheLevelRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static CacheLevelRule from_json(const json::Value &section, std::string_view where);
  // `added_code`: the change's added running lines.
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view added_code) const;

private:
  struct Level {
    std::string name;
    std::shared_ptr<const text::Regex> claims, code;
  };
  std::vector<Level> levels_;
};

} // namespace otm::distill
