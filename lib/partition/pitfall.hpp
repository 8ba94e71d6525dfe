// Curated pitfalls (spec partition.md §5, trace-format.md §3.2): both
// vintages of a step record's pitfalls_and_fixes entries, normalised into
// the older {pitfall, explanation, fix} triple before any other use, so the
// newer vintage is neither dropped from segments nor shown as all-null in
// packets.
#pragma once

#include <optional>
#include <string>

#include "json/value.hpp"

namespace otm::partition {

// Newer keys (error_type, error_message, root_cause, fix_applied, lesson)
// mapped onto the older triple; older keys win when present and non-empty.
// Non-object entries are returned unchanged.
json::Value normalise_pitfall(const json::Value &entry);

struct PitfallText {
  std::string text;               // the claim, with its explanation appended
  std::optional<std::string> fix; // null when empty
};
// §5 on a normalised entry.
PitfallText pitfall_text(const json::Value &entry);

} // namespace otm::partition
