// Curated pitfall text (spec partition.md §5). Entries are first brought
// into the older {pitfall, explanation, fix} triple by
// trace::normalise_pitfall (ingest already does so; applying it again keeps
// hand-written work files of either vintage working), so the newer vintage
// is neither dropped from segments nor shown as all-null in packets.
#pragma once

#include <optional>
#include <string>

#include "json/value.hpp"

namespace otm::partition {

struct PitfallText {
  std::string text;               // the claim, with its explanation appended
  std::string claim;              // the claim alone (what failed, for grouping by failed lever)
  std::optional<std::string> fix; // null when empty
};
// §5 on an entry of either vintage.
PitfallText pitfall_text(const json::Value &entry);

} // namespace otm::partition
