// The store's index held as its entries' places, not their values, for a
// reader that looks at each entry once (the index gate of the one-pass
// store gates: issue 11). records/index.json is read once through, a
// window at a time, and checked as store::load_index checks it (a document
// load_index refuses, this refuses); of each entry of its records list it
// keeps where the entry is (in the file, or a line of records/index.journal
// folded on by the one entry-order rule, store/index_order.hpp), its id,
// and where the members its reader asks for are in it. An entry's members
// are parsed when asked, from a fresh read of their bytes through the file
// opened at load (a compaction that renames a new index into place does not
// change what it reads). Memory is the entries' ids and places, not the
// index's text, nor its parsed values (about five times its text).
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/limits.hpp"
#include "json/value.hpp"

namespace otm::io {
class OpenFile;
}

namespace otm::store {

namespace fs = std::filesystem;

class LazyIndex {
public:
  struct Entry {
    std::size_t at = 0, size = 0;       // its bytes in index.json (or the journal's)
    std::size_t id_at = 0, id_size = 0; // its id, in the index's id arena
    std::size_t members_at = 0;         // its members' places, in the index's place list
    bool in_journal = false;
    bool has_id = false;       // "id" is a string
    std::uint32_t present = 0; // bit i: it has members()[i]
  };

  // The asked members of one entry, parsed (nullopt where absent), alive
  // while the reader looks at it. Each one alive is counted, so a test can
  // tell that a reader holds one entry at a time (parsed_alive).
  class Parsed {
  public:
    explicit Parsed(std::vector<std::optional<json::Value>> values);
    ~Parsed();
    Parsed(Parsed &&other) noexcept;
    Parsed(const Parsed &) = delete;
    Parsed &operator=(const Parsed &) = delete;
    Parsed &operator=(Parsed &&) = delete;
    // Member i (null when absent).
    const json::Value &operator[](std::size_t i) const;

  private:
    std::vector<std::optional<json::Value>> values_;
    bool counted_ = true;
  };

  // The index of the store at `root` (nullopt when neither index.json nor
  // the journal is there), noting of each entry which of `members` it has.
  // Throws json::ParseError exactly where store::load_index does: either
  // file present but refused by the reading policy, or not JSON.
  static std::optional<LazyIndex> load(const fs::path &root, const config::Limits &limits,
                                       std::vector<std::string> members);
  // An index given whole as its text (one built in memory), kept as it is.
  // Throws json::ParseError naming `source` when it is not JSON.
  static LazyIndex from_text(std::string text, std::vector<std::string> members, const std::string &source = "<index>");

  LazyIndex(LazyIndex &&) noexcept;
  LazyIndex &operator=(LazyIndex &&) noexcept;
  ~LazyIndex();

  // Its "schema" when that is a string, else "" (json::Value::string_or).
  const std::string &schema() const { return schema_; }
  // Whether its "records" is a list (entries() is empty otherwise).
  bool has_records_list() const { return has_records_; }
  // The entries of the list, in the order load_index gives them.
  const std::vector<Entry> &entries() const { return entries_; }
  const std::vector<std::string> &members() const { return members_; }

  std::string_view id(const Entry &e) const { return std::string_view(ids_).substr(e.id_at, e.id_size); }
  bool has(const Entry &e, std::size_t member) const { return (e.present >> member) & 1u; }
  // The entry's members, parsed now. Throws json::ParseError when its bytes
  // can no longer be read.
  Parsed parse(const Entry &e) const;
  // The entry's text, as written.
  std::string text(const Entry &e) const;

  // The bytes it holds (ids, places, the journal's lines), not counting
  // one entry's parse.
  std::size_t held_bytes() const;
  // Parsed entries alive now in this process, and the most alive at once
  // since reset_parsed_peak().
  static std::size_t parsed_alive();
  static std::size_t parsed_peak();
  static void reset_parsed_peak();

private:
  // Where an entry's member is: from its name to its value's end, as
  // offsets from the entry's start. members().size() of them per entry,
  // from Entry::members_at.
  struct Place {
    std::size_t at = 0, end = 0;
  };
  LazyIndex();
  class Scan;
  std::string bytes(const Entry &e, std::size_t from, std::size_t size) const;

  std::vector<std::string> members_;
  std::string shown_;                   // the index file, in errors
  std::unique_ptr<io::OpenFile> file_;  // index.json, or null when...
  std::string text_;                    // ...its text was given
  std::string journal_, journal_shown_; // the journal's bytes, when folded on
  bool is_object_ = false;
  std::string schema_;
  bool has_records_ = false;
  std::vector<Entry> entries_;
  std::string ids_;
  std::vector<Place> places_;
};

} // namespace otm::store
