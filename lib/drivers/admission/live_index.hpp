// Reading the live index for a change (under the exclusive lock): it must be
// readable, and may be absent only while records/ holds no record, so a
// write never silently drops the entries of an unreadable index.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "config/limits.hpp"
#include "store/index_keys.hpp"
#include "json/value.hpp"

namespace otm::admission {

// The index document, or null for an empty store without one. Throws
// io::IoError naming the file and the fix when it is broken, or missing
// while records exist.
json::Value load_live_index_for_update(const std::filesystem::path &live_root);

// The `path` of the entry with `id` (relative to the live root), if any.
std::optional<std::string> indexed_path(const json::Value &index, const std::string &id);

// "records/a/b.json" → "a/b.json"; throws io::IoError for a path that is not
// under records/.
std::filesystem::path under_records(const std::string &relpath);

// The keys of the live index (store/index_keys.hpp) for a change, under the
// same rules: throws io::IoError naming the file and the fix when the index
// or its journal is broken, or records/index.json is missing while records
// exist that the journal does not account for.
store::KeysIndex live_keys_for_update(const std::filesystem::path &live_root, const config::Limits &limits = {});

} // namespace otm::admission
