// The live index entry of one record (spec wiki-gate.md §4.4, the store's
// reindex tool), and the live index document around it.
#pragma once

#include <string>

#include "json/value.hpp"

namespace otm::admission {

// Entry for `record` stored at `relpath` (relative to the live root,
// "records/..." with "/" separators).
json::Value live_index_entry(const json::Value &record, const std::string &relpath);

// The index with `entry` added or replacing the entry of the same id, entries
// sorted by id, `count` updated; other top-level keys kept. An absent index
// (`index` null) starts the reindex tool's document.
// Taken by value: a caller that moves its index in pays for no copy of it.
json::Value index_with_entry(json::Value index, json::Value entry);

} // namespace otm::admission
