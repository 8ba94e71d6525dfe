// The one entry-order rule of a store index (records/index.json and the
// index journal folded onto it): entries keyed by id, an upsert replaces the
// entry of its id, entries sorted by id, `count` the number of entries.
#pragma once

#include <vector>

#include "json/value.hpp"

namespace otm::store {

// The index with each of `entries` added or replacing the entry of the same
// id (a later one of `entries` wins over an earlier one of the same id),
// entries sorted by id, `count` updated; other top-level keys kept. An
// absent index (`index` null) starts the reindex tool's document. Taken by
// value: a caller that moves its index in pays for no copy of it.
json::Value index_with_entries(json::Value index, std::vector<json::Value> entries);
json::Value index_with_entry(json::Value index, json::Value entry);

} // namespace otm::store
