// The keys index of a live store, records/.otm-index-keys: for each entry of
// records/index.json its id, path, scope keys (retrieval.scope vendor, arch,
// operator_family, dsl) and episode_key, as sorted lines a reader binary-
// searches in place (mmap) without parsing the 2.4 KB-an-entry JSON index.
// A derived cache, never authoritative and never committed: it is stamped
// with the identity (size, mtime, inode) of the index.json it was built
// from and rebuilt when that differs or it is missing or damaged — the one
// step whose work grows with the store, after a compaction or a checkout.
// The journal's entries (store/index_journal.hpp) carry the same key fields
// in their lines and are laid over it, so the keys are those of the whole
// index (store::load_index).
//
// Key fields are tab-separated; in a field '%', tab, CR and LF are
// %-escaped. A scope key is "-" (absent or null), "=<string>" or
// "#<compact JSON>" (another value), so equal values have equal fields.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/limits.hpp"
#include "io/mapped_file.hpp"
#include "json/value.hpp"

namespace otm::store {

namespace fs = std::filesystem;

// "vendor\tarch\toperator_family\tdsl\tid\tpath\tepisode_key".
inline constexpr int kKeyFields = 7;
std::string entry_keys(const json::Value &entry);

fs::path keys_cache_file(const fs::path &root);

// The one scope rule of `match` (admission::scope_matches): the entry's
// retrieval.scope is kept when vendor, arch, operator_family equal the
// incoming ones that are set, and dsl by the two-way `any` rule (an unset or
// "any" incoming dsl keeps every entry; otherwise the same dsl or "any").
bool scope_keeps(const json::Value &incoming_scope, const json::Value &entry_scope);

struct KeyRow {
  std::string id;
  std::string path; // relative to the store root, as the index names it
  std::string episode_key;
};

class KeysIndex {
public:
  // The keys of the index of `root`. Rebuilds the cache when it is stale
  // (written back when the store is writable; otherwise kept in memory).
  // Throws json::ParseError when records/index.json or the journal cannot
  // be read, or index.json is not an index.
  static KeysIndex open(const fs::path &root, const config::Limits &limits = {});

  bool has_base() const { return has_base_; }
  // No index at all: neither records/index.json nor a journal line.
  bool empty() const { return !has_base_ && journal_.empty(); }
  std::size_t journal_entries() const { return journal_lines_; }
  std::size_t journal_bytes() const { return journal_bytes_; }
  // Distinct ids in the journal.
  std::size_t journal_ids() const { return journal_.size(); }

  // The path of the entry with `id`, if the index has one.
  std::optional<std::string> path_of(std::string_view id) const;
  // The entries whose retrieval.scope `scope` keeps (admission::scope_matches:
  // vendor, arch, operator_family equal when the incoming one is set; dsl by
  // the two-way `any` rule), sorted by id.
  std::vector<KeyRow> in_scope(const json::Value &scope) const;

private:
  bool has_base_ = false;
  std::optional<io::MappedFile> map_;
  std::string built_;      // the cache's bytes when rebuilt in this process
  std::string_view bytes_; // the cache (either)
  std::size_t by_id_at_ = 0, by_id_end_ = 0, by_scope_end_ = 0;
  // The journal's rows, the last one of each id: the key fields as written.
  std::map<std::string, std::vector<std::string>, std::less<>> journal_;
  std::size_t journal_lines_ = 0, journal_bytes_ = 0;
};

// Writes the keys cache of the index just written to records/index.json
// (compaction), stamped with that file as it is now. Best effort: a store
// that cannot take it rebuilds it on the next open.
void write_keys_cache(const fs::path &root, const json::Value &base_index);

} // namespace otm::store
