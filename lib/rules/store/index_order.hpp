// The one entry-order rule of a store index (records/index.json and the
// index journal folded onto it): entries keyed by id, an upsert replaces the
// entry of its id, entries sorted by id, `count` the number of entries.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

namespace otm::store {

// The rule over entries of any form (a reader that holds entries as byte
// ranges folds them as the parsed ones are): `base` less the entries whose
// id one of `incoming` has, with the incoming ones added (the last of an
// id), sorted by id, stable. `id_of(entry)` is its id ("" when it has none).
template <typename Entry, typename IdOf>
std::vector<Entry> fold_entries(std::vector<Entry> base, std::vector<Entry> incoming, IdOf id_of) {
  // The last upsert of an id wins; the entries are moved, never copied (an
  // index of thousands of entries).
  std::map<std::string, Entry, std::less<>> latest;
  for (auto &e : incoming) latest.insert_or_assign(std::string(id_of(e)), std::move(e));
  auto by_id = [&](const Entry &a, const Entry &b) { return id_of(a) < id_of(b); };
  std::erase_if(base, [&](const Entry &e) { return latest.count(id_of(e)) != 0; });
  if (std::is_sorted(base.begin(), base.end(), by_id)) {
    // An already sorted list takes the new entries at their places (the map
    // gives them sorted): one merge.
    std::vector<Entry> merged;
    merged.reserve(base.size() + latest.size());
    auto it = base.begin();
    for (auto &[id, e] : latest) {
      for (; it != base.end() && !(std::string_view(id) < id_of(*it)); ++it) merged.push_back(std::move(*it));
      merged.push_back(std::move(e));
    }
    for (; it != base.end(); ++it) merged.push_back(std::move(*it));
    return merged;
  }
  for (auto &[id, e] : latest) base.push_back(std::move(e));
  std::stable_sort(base.begin(), base.end(), by_id);
  return base;
}

// The index with each of `entries` added or replacing the entry of the same
// id (a later one of `entries` wins over an earlier one of the same id),
// entries sorted by id, `count` updated; other top-level keys kept. An
// absent index (`index` null) starts the reindex tool's document. Taken by
// value: a caller that moves its index in pays for no copy of it.
json::Value index_with_entries(json::Value index, std::vector<json::Value> entries);
json::Value index_with_entry(json::Value index, json::Value entry);

} // namespace otm::store
