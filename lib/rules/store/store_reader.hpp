// Reading a store (staging or live): a directory holding records/ with
// records/<type>/.../<id>.json and records/index.json. Shared by the gates,
// recon, partition and the admission gate. A record is untrusted input: the
// store is read beneath its root (io::Beneath: a record file that is a link
// out of the store is not read), regular files only, within the limits
// (docs/security.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/limits.hpp"
#include "json/value.hpp"

namespace otm::io {
class Beneath;
}

namespace otm::store {

namespace fs = std::filesystem;

struct StoredRecord {
  std::string relpath;     // relative to the store root, "/" separators ("records/strategy/...")
  fs::path path;           // absolute or as given
  json::Value record;      // null when the file does not parse
  std::string parse_error; // non-empty when the file was not read or does not parse
  // The bytes to read instead of the file: its content before a commit
  // that is still under way (store/pending_commit.hpp).
  std::optional<std::string> bytes_before_commit;
};

// One record's text parsed: a JSON object within limits.max_json_depth, or
// an error naming `source` (invalid JSON, not an object, nested too deep).
struct ParsedRecord {
  json::Value record; // null when `error` is set
  std::string error;
};
ParsedRecord parse_record(std::string_view text, const std::string &source, const config::Limits &limits);

// The record at `relpath` (relative to the store root, as an index entry
// names it), read under the same policy as load_records(). Throws
// json::ParseError naming the file and why it was not read (a link out of
// the store, not a regular file, too large, not a JSON object, too deep).
json::Value read_record(const fs::path &root, const std::string &relpath, const config::Limits &limits = {});

// Every *.json under <root>/records/ (recursive) except files named
// index.json, sorted by relpath. A file that cannot be read or does not
// parse_record() is kept with its error (so is a directory that cannot be
// listed), so gates report it instead of passing it over. While a
// live-store commit is under way, the records are those of before it
// (pending_view).
std::vector<StoredRecord> load_records(const fs::path &root, const config::Limits &limits = {});

// The same files without reading them (relpath and path set, no record; a
// directory that cannot be listed already carries its error).
std::vector<StoredRecord> record_files(const fs::path &root);
// Those files as little as names them, for a reader that streams the
// records of a large store, holding one at a time (a path per file, which
// std::filesystem keeps with its parsed components, was most of what the
// one-pass store gates held at 100,000 records); stored_record() makes one
// the StoredRecord that record_files() gives.
struct RecordFile {
  std::string relpath;
  std::string error; // the StoredRecord's parse_error (a directory that cannot be listed)
  std::optional<std::string> bytes_before_commit;
};
std::vector<RecordFile> record_file_list(const fs::path &root);
StoredRecord stored_record(const fs::path &root, RecordFile file);
// Reads and parses one of them under the reading policy (parse_error set
// instead of throwing; nothing read when it is already set).
void read_record(const fs::path &root, StoredRecord &r, const config::Limits &limits = {});
// The same beneath a store root opened once (a reader of every record).
void read_record(const io::Beneath &store, StoredRecord &r, const config::Limits &limits = {});

// The store's index: <root>/records/index.json (read within
// limits.max_input_bytes) with the entries of records/index.journal folded
// on (store/index_journal.hpp, by the one entry-order rule of
// store/index_order.hpp), or nullopt when neither is there. Every reader of
// the index goes through here. Throws json::ParseError when either is
// present but broken or refused by the reading policy.
std::optional<json::Value> load_index(const fs::path &root, const config::Limits &limits = {});

// The live store's entries (spec partition.md §6): the `records` list of the
// index; when the index is missing or unreadable, entries built by walking
// records/ (id, type, episode_key, path, retrieval).
std::vector<json::Value> live_entries(const fs::path &root, const config::Limits &limits = {});

} // namespace otm::store
