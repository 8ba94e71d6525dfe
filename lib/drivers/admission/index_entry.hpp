// The live index entry of one record (spec wiki-gate.md §4.4, the store's
// reindex tool).
#pragma once

#include <string>

#include "store/index_order.hpp"
#include "json/value.hpp"

namespace otm::admission {

// Entry for `record` stored at `relpath` (relative to the live root,
// "records/..." with "/" separators).
json::Value live_index_entry(const json::Value &record, const std::string &relpath);

// The index with one entry upserted: the store's one entry-order rule.
using store::index_with_entry;

} // namespace otm::admission
