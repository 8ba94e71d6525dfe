// The live index's journal, records/index.journal (docs/admission.md, "The
// index journal"). records/index.json is the index as of the last
// compaction; every commit that changes the index appends one line to the
// journal, an upsert of one entry, and flushes it: that append is the
// commit's commit point. The index is the base with the journal's entries
// folded on (store::load_index, by the one entry-order rule).
//
// A line is "<payload length> <SHA-256 of the payload> <payload>\n"; the
// payload is the entry's key fields (store/index_keys.hpp, so a reader of
// ids and scopes parses no JSON), its record's candidate summary as `match`
// prints it (store/candidate_summary.hpp, so `match` reads no record) and
// the entry as one JSON line, separated by tabs. A line written by otm
// before the summary (one tab fewer: neither JSON line holds a raw tab) has
// no summary; its reader reads the record instead. A writer killed (or a power loss) in the middle of an append
// leaves a torn last line: readers ignore it, and the next writer truncates
// it under the lock before it appends. Only the last line can be torn (each
// writer checks it before appending), so only the last line's hash is
// checked on every read; an earlier line that does not parse is damage.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "config/limits.hpp"
#include "json/value.hpp"

namespace otm::store {

namespace fs = std::filesystem;

fs::path journal_file(const fs::path &root);

// The line that upserts `entry` (newline included), whose record's summary
// is `summary` (store::candidate_summary_text), and its payload's hash.
struct JournalLineText {
  std::string text;
  std::string sha256;
};
JournalLineText journal_line(const json::Value &entry, std::string_view summary);

struct JournalLine {
  std::size_t offset = 0;                       // of the line in the file
  std::size_t end = 0;                          // past its newline
  std::size_t keys_at = 0, keys_size = 0;       // the key fields
  std::size_t summary_at = 0, summary_size = 0; // the summary (size 0: none)
  std::size_t entry_at = 0, entry_size = 0;     // the entry's JSON
};

struct Journal {
  std::string bytes;              // the file (empty when absent)
  std::vector<JournalLine> lines; // the complete lines, in order
  std::size_t valid_end = 0;      // past the last complete line
  bool torn_tail() const { return valid_end != bytes.size(); }
  std::string_view keys(const JournalLine &l) const { return std::string_view(bytes).substr(l.keys_at, l.keys_size); }
  std::string_view summary(const JournalLine &l) const {
    return std::string_view(bytes).substr(l.summary_at, l.summary_size);
  }
  std::string_view entry_json(const JournalLine &l) const {
    return std::string_view(bytes).substr(l.entry_at, l.entry_size);
  }
};

// The journal of `root` (an empty one when the file is absent). Throws
// json::ParseError naming the file when it cannot be read or a line other
// than a torn last one is damaged.
Journal read_journal(const fs::path &root, const config::Limits &limits = {});

// The entries of its lines, parsed, in order. Throws json::ParseError.
std::vector<json::Value> journal_entries(const Journal &journal, const fs::path &root);

// True when the journal holds a complete line at `offset` whose payload
// hashes to `sha256`: the commit that appends it has reached its commit
// point.
bool journal_has_line_at(const fs::path &root, std::uint64_t offset, const std::string &sha256);

} // namespace otm::store
