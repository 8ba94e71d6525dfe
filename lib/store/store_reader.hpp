// Reading a store (staging or live): a directory holding records/ with
// records/<type>/.../<id>.json and records/index.json. Shared by the gates,
// recon, partition and the admission gate.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "json/value.hpp"

namespace otm::store {

namespace fs = std::filesystem;

struct StoredRecord {
  std::string relpath;     // relative to the store root, "/" separators ("records/strategy/...")
  fs::path path;           // absolute or as given
  json::Value record;      // null when the file does not parse
  std::string parse_error; // non-empty when the file does not parse
  // The bytes to read instead of the file: its content before a commit
  // that is still under way (store/pending_commit.hpp).
  std::optional<std::string> bytes_before_commit;
};

// Every *.json under <root>/records/ (recursive) except files named
// index.json, sorted by relpath. A file that does not parse is kept with its
// error, so gates can report it instead of crashing. While a live-store
// commit is under way, the records are those of before it (pending_view).
std::vector<StoredRecord> load_records(const fs::path &root);

// The same files without reading them (relpath and path set, no record):
// what a reader that streams records walks, holding one at a time.
std::vector<StoredRecord> record_files(const fs::path &root);
// Reads and parses one of them (parse_error set instead of throwing).
void read_record(StoredRecord &r);

// The index file <root>/records/index.json, or nullopt when absent. Throws
// json::ParseError when present but broken.
std::optional<json::Value> load_index(const fs::path &root);

// The live store's entries (spec partition.md §6): the `records` list of the
// index; when the index is missing or unreadable, entries built by walking
// records/ (id, type, episode_key, path, retrieval).
std::vector<json::Value> live_entries(const fs::path &root);

} // namespace otm::store
