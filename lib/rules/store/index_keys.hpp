// The keys index of a live store, records/.otm-index-keys: for each entry of
// records/index.json its id, path, scope keys (retrieval.scope vendor, arch,
// operator_family, dsl), episode_key, where the entry sits in index.json and
// its record's candidate summary (store/candidate_summary.hpp) as `match`
// prints it, as sorted lines a reader binary-searches in place (mmap)
// without parsing the 2.4 KB-an-entry JSON index or reading a record.
// A derived cache, never authoritative and never committed: it is stamped
// with the identity (size, mtime, inode) of the index.json it was built
// from and rebuilt when that differs or it is missing, damaged or of
// another format version — the one step whose work grows with the store
// (it reads index.json and every record), after a checkout. A compaction
// writes it from the keys it folded (write_keys_cache), reading no record.
// The journal's entries (store/index_journal.hpp) carry the same key fields
// and summary in their lines and are laid over it, so the keys are those of
// the whole index (store::load_index).
//
// Key fields are tab-separated; in a field '%', tab, CR and LF are
// %-escaped. A scope key is "-" (absent or null), "=<string>" or
// "#<compact JSON>" (another value), so equal values have equal fields.
#pragma once

#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/limits.hpp"
#include "io/mapped_file.hpp"
#include "store/index_journal.hpp"
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

// The identity of a records/index.json the keys were built from.
struct IndexStamp {
  long long size = -1, mtime_ns = 0, ino = 0;
  bool operator==(const IndexStamp &) const = default;
};

// One entry in a scope. The views point into the KeysIndex (or the
// ScopeRows, for a field that had to be unescaped): valid while both live.
struct KeyRow {
  std::string_view id;
  std::string_view path; // relative to the store root, as the index names it
  std::string_view episode_key;
  // Its record's candidate summary; empty when the keys have none: an entry
  // whose record could not be read when they were built, or a journal line
  // written before summaries were.
  std::string_view summary;
};
struct ScopeRows {
  std::vector<KeyRow> rows;          // sorted by id
  std::deque<std::string> unescaped; // what views of escaped fields point to
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
  bool empty() const { return !has_base_ && journal_.lines.empty(); }
  std::size_t journal_entries() const { return journal_.lines.size(); }
  std::size_t journal_bytes() const { return journal_.valid_end; }
  // Distinct ids in the journal.
  std::size_t journal_ids() const { return journal_rows_.size(); }

  // The path of the entry with `id`, if the index has one.
  std::optional<std::string> path_of(std::string_view id) const;
  // The entries whose retrieval.scope `scope` keeps (admission::scope_matches:
  // vendor, arch, operator_family equal when the incoming one is set; dsl by
  // the two-way `any` rule), sorted by id. No field is copied (a scope can
  // hold tens of thousands of entries).
  ScopeRows in_scope(const json::Value &scope) const;
  // The summary the keys hold for the entry with `id` (empty: none), or
  // nullopt when the index has no such entry.
  std::optional<std::string_view> summary_of(std::string_view id) const;
  // The entry with `id` as the index holds it, its JSON text: the journal's
  // line, or its bytes in records/index.json (read at the place the keys
  // name). nullopt when the index has no such entry, or index.json is no
  // longer the file the keys were built from.
  std::optional<std::string> entry_text(std::string_view id) const;

  // Every entry of records/index.json (the base; the journal is not laid
  // over) with its key fields as entry_keys() makes them, its place in
  // index.json and its summary, sorted by place. The views point into the
  // KeysIndex. What a compaction that splices the journal's entries into
  // index.json re-stamps the keys from (admission::compact_index).
  struct BaseRow {
    std::string_view keys; // entry_keys() of the entry
    std::string id;        // unescaped
    std::size_t at = 0, size = 0;
    std::string_view summary;
  };
  std::vector<BaseRow> base_rows() const;

private:
  struct BaseLine;
  std::optional<BaseLine> base_line(std::string_view id) const;
  std::string_view summary_at(std::string_view field) const;

  fs::path root_;
  bool has_base_ = false;
  IndexStamp stamp_;
  std::optional<io::MappedFile> map_;
  std::string built_;      // the cache's bytes when rebuilt in this process
  std::string_view bytes_; // the cache (either)
  std::size_t by_id_at_ = 0, by_id_end_ = 0, by_scope_end_ = 0, summaries_end_ = 0;
  Journal journal_;
  // The journal's line of each id (the last one).
  std::map<std::string, std::size_t, std::less<>> journal_rows_;
};

// The keys cache of a records/index.json, entry by entry, by the writer of
// that file (the store generator, compaction) or by a rebuild.
class KeysCacheBuilder {
public:
  // `entry` sits in records/index.json at bytes [at, at + size); `summary`
  // is its record's candidate summary text (empty: none known).
  void add(const json::Value &entry, std::size_t at, std::size_t size, std::string_view summary);
  // The same with the entry's key fields (entry_keys) made already.
  void add(std::string keys, std::size_t at, std::size_t size, std::string_view summary);
  // The cache for the index.json of identity `stamp`.
  std::string bytes(const IndexStamp &stamp) const;
  // Writes records/.otm-index-keys stamped with records/index.json as it is
  // now. Best effort: a store that cannot take it rebuilds it on the next
  // open.
  void write(const fs::path &root) const;

private:
  std::vector<std::string> by_id_, by_scope_;
  std::string summaries_;
};

// Writes the keys cache of the index just written to records/index.json as
// `index_text`, the document `index` (compaction): each entry's summary
// from `before` (the keys of the index that was folded), or, for an entry
// without one there, read from its record. Best effort, like
// KeysCacheBuilder::write.
void write_keys_cache(const fs::path &root, std::string_view index_text, const json::Value &index,
                      const KeysIndex &before, const config::Limits &limits = {});

} // namespace otm::store
