#include "store/index_entry.hpp"

namespace otm::store {

IndexEntry IndexEntry::from_json(const json::Value &entry) {
  IndexEntry e;
  if (const auto *s = entry.get("id").as_string()) e.id = *s;
  if (const auto *s = entry.get("path").as_string()) e.path = *s;
  if (const auto *s = entry.get("type").as_string()) e.type = *s;
  return e;
}

} // namespace otm::store
