// One entry of records/index.json (or of its journal) as the admission and
// the store's readers read it back: the record's id, where its file is and
// its type (issue 28: each read them field by field with string_or, a
// renamed field read as "" wherever it was read). otm-score and the
// admission write the entries.
//
//   auto e = store::IndexEntry::from_json(entry);
//   if (e.id == target) ... e.path
//
// The reading is lenient, as those reads always were: a field that is
// absent, null or of another type reads as "" (the index gate judges the
// entries).
#pragma once

#include <optional>
#include <string>

#include "json/value.hpp"

namespace otm::store {

struct IndexEntry {
  std::string id, path;
  // Empty when the entry states none (coverage then asks the record).
  std::optional<std::string> type;

  static IndexEntry from_json(const json::Value &entry);
};

} // namespace otm::store
