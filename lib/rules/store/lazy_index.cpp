#include "store/lazy_index.hpp"

#include <algorithm>
#include <cstring>

#include "error/error.hpp"
#include "io/beneath.hpp"
#include "store/index_journal.hpp"
#include "store/index_order.hpp"
#include "workspace/layout.hpp"
#include "json/parse_part.hpp"
#include "json/value_cut.hpp"

namespace otm::store {

namespace {

std::atomic<std::size_t> alive{0}, peak{0};

// Levels around an entry of the list ({"records": [entry]}) and around a
// member of the index object: what a parse of the whole would count.
constexpr std::size_t kEntryDepth = 2, kMemberDepth = 1;

constexpr std::string_view kRecords = "records", kSchema = "schema", kId = "id";

// The entry's members are noted in a 32-bit mask.
void check_members(const std::vector<std::string> &members) {
  if (members.size() > 32)
    throw Error(ErrorKind::Usage,
                "a lazy index notes at most 32 members of an entry, not " + std::to_string(members.size()));
}

} // namespace

// Reads the index's text once through, a window at a time, and notes its
// schema, whether it has a records list and that list's entries.
class LazyIndex::Scan {
public:
  Scan(LazyIndex &index, const std::string &text) : index_(index), given_(&text) {}
  explicit Scan(LazyIndex &index) : index_(index) {}

  void run() {
    std::size_t p = space(0);
    index_.is_object_ = peek(p) == '{';
    if (!index_.is_object_) {
      // Not an index: checked whole, as parse() would; nothing to note.
      auto [at, end] = value(p);
      json::check_part(window(at, end), 0, index_.shown_);
      finish(end);
      return;
    }
    p = space(p + 1);
    if (peek(p) == '}') {
      finish(p + 1);
      return;
    }
    while (true) {
      if (peek(p) != '"') fail(p, "a member name expected");
      auto [key_at, key_end] = value(p);
      json::Value key = json::parse_part(window(key_at, key_end), kMemberDepth, index_.shown_);
      p = space(key_end);
      if (peek(p) != ':') fail(p, "':' expected");
      p = space(p + 1);
      // A repeated member: the last one's value is the one parse() keeps.
      bool records = *key.as_string() == kRecords;
      if (records) {
        index_.entries_.clear();
        index_.has_records_ = false;
      }
      if (records && peek(p) == '[') {
        p = list(p);
        index_.has_records_ = true;
      } else {
        auto [at, end] = value(p);
        if (*key.as_string() == kSchema) {
          auto schema = json::parse_part(window(at, end), kMemberDepth, index_.shown_);
          const auto *s = schema.as_string();
          index_.schema_ = s ? *s : std::string();
        } else {
          json::check_part(window(at, end), kMemberDepth, index_.shown_);
        }
        p = end;
      }
      p = space(p);
      char c = peek(p);
      if (c == '}') break;
      if (c != ',') fail(p, "',' or '}' expected");
      p = space(p + 1);
    }
    finish(p + 1);
  }

  // Cuts the entry at text[at] and notes it in `e` (its size, id and
  // members' places; the caller sets where it is): Complete, with the
  // entry checked as parse() checks it `depth` levels down unless the
  // caller checks it with others (`check` false), or NeedMore / Malformed
  // with nothing noted. One walk over its bytes finds its end and its
  // members.
  static json::Cut note(LazyIndex &index, std::string_view text, std::size_t at, bool at_end, std::size_t depth,
                        const std::string &source, bool check, Entry &e) {
    thread_local std::vector<Place> places;
    places.assign(index.members_.size(), Place{});
    std::uint32_t present = 0;
    std::optional<json::Extent> id;
    std::string decoded;
    auto cut = json::cut_object(text, at, at_end, [&](json::Extent name, json::Extent value) {
      auto key = json::unquote(text.substr(name.at, name.end - name.at), decoded, source);
      // A repeated name: the last one's value is the one parse() keeps.
      if (key == kId) id = value;
      for (std::size_t m = 0; m < index.members_.size(); ++m)
        if (key == index.members_[m]) {
          places[m] = {name.at - at, value.end - at};
          present |= 1u << m;
        }
    });
    if (cut.status != json::Cut::Complete) return cut.status;
    std::string_view entry = text.substr(at, cut.end - at);
    if (check) json::check_part(entry, depth, source);
    e.size = entry.size();
    e.present = present;
    e.members_at = index.places_.size();
    index.places_.insert(index.places_.end(), places.begin(), places.end());
    if (id && text[id->at] == '"') {
      e.has_id = true;
      e.id_at = index.ids_.size();
      index.ids_ += json::unquote(text.substr(id->at, id->end - id->at), decoded, source);
      e.id_size = index.ids_.size() - e.id_at;
    }
    return json::Cut::Complete;
  }

private:
  static constexpr int kEnd = -1;
  static constexpr std::size_t kChunk = 1u << 20, kBatch = 256u << 10;

  // The entries of the list whose '[' is at `p`; past its ']'.
  std::size_t list(std::size_t p) {
    p = space(p + 1);
    if (peek(p) == ']') return p + 1;
    while (true) {
      Entry e;
      while (true) {
        auto cut = note(index_, text(), p - base_, at_end(), kEntryDepth, index_.shown_, false, e);
        if (cut == json::Cut::Complete) break;
        if (cut == json::Cut::Malformed) fail(p, "no value");
        if (!more(p)) fail(p, "the document ends inside a value");
      }
      e.at = p;
      index_.entries_.push_back(e);
      if (!batch_) batch_ = {p, p};
      batch_->end = p + e.size;
      if (batch_->end - batch_->at >= kBatch) check_batch();
      p = space(p + e.size);
      char c = peek(p);
      if (c == ']') {
        check_batch();
        return p + 1;
      }
      if (c != ',') fail(p, "',' or ']' expected");
      p = space(p + 1);
    }
  }

  // The entries noted since the last check, checked as one run of the
  // list's elements (a parse per entry cost as much again in its setup).
  void check_batch() {
    if (!batch_) return;
    json::check_elements(window(batch_->at, batch_->end), kEntryDepth - 1, index_.shown_);
    batch_.reset();
  }

  // Only whitespace may follow the document.
  void finish(std::size_t p) {
    p = space(p);
    if (peek(p) != kEnd) fail(p, "text after the document");
  }

  [[noreturn]] void fail(std::size_t at, const char *what) {
    throw json::ParseError(index_.shown_ + ": invalid JSON (" + what + " at byte " + std::to_string(at) + ")");
  }

  // The text from file offset `at` to `end` (both within the window).
  std::string_view window(std::size_t at, std::size_t end) const { return text().substr(at - base_, end - at); }
  std::string_view text() const { return given_ ? std::string_view(*given_) : std::string_view(buf_.get(), len_); }
  bool at_end() const { return given_ || eof_; }

  // Reads more of the file into the window, keeping it from file offset
  // `keep` on; false at the end of the file. Each read is at least as large
  // as what the window holds, so a value cut again after a read is cut
  // again a bounded number of times.
  bool more(std::size_t keep) {
    if (at_end()) return false;
    check_batch(); // before its bytes leave the window
    // Not a std::string: its resize would clear every byte it then reads.
    std::size_t kept = len_ - (keep - base_);
    std::size_t want = std::max(kChunk, kept);
    if (cap_ < kept + want) {
      std::size_t cap = std::max(2 * cap_, kept + want);
      std::unique_ptr<char[]> grown(new char[cap]);
      if (kept) std::memcpy(grown.get(), buf_.get() + (keep - base_), kept);
      buf_ = std::move(grown);
      cap_ = cap;
    } else {
      std::memmove(buf_.get(), buf_.get() + (keep - base_), kept);
    }
    base_ = keep;
    len_ = kept;
    std::size_t got = 0;
    while (got < want) {
      std::size_t n = index_.file_->read_at(base_ + len_, buf_.get() + len_, want - got);
      if (n == 0) break;
      got += n;
      len_ += n;
    }
    if (!*index_.file_) throw json::ParseError(index_.shown_ + ": not read: " + index_.file_->why);
    if (got < want) eof_ = true;
    return got != 0;
  }

  // The first byte at or after `p` that is not whitespace.
  std::size_t space(std::size_t p) {
    while (true) {
      std::size_t q = json::skip_space(text(), p - base_) + base_;
      if (q - base_ < text().size() || !more(q)) return q;
      p = q;
    }
  }
  int peek(std::size_t p) {
    while (p - base_ >= text().size())
      if (!more(p)) return kEnd;
    return static_cast<unsigned char>(text()[p - base_]);
  }
  // The value at `p`: its file offsets [at, end), within the window.
  std::pair<std::size_t, std::size_t> value(std::size_t p) {
    while (true) {
      auto cut = json::cut_value(text(), p - base_, at_end());
      if (cut.status == json::Cut::Complete) return {p, cut.end + base_};
      if (cut.status == json::Cut::Malformed) fail(p, "no value");
      if (!more(p)) fail(p, "the document ends inside a value");
    }
  }

  LazyIndex &index_;
  const std::string *given_ = nullptr; // the whole text, when given
  std::unique_ptr<char[]> buf_;        // else the window: len_ bytes of cap_
  std::size_t len_ = 0, cap_ = 0;
  std::optional<json::Extent> batch_; // file offsets of the entries not checked yet
  std::size_t base_ = 0;              // file offset of its first byte
  bool eof_ = false;
};

LazyIndex::Parsed::Parsed(std::vector<std::optional<json::Value>> values) : values_(std::move(values)) {
  std::size_t now = ++alive;
  std::size_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
}
LazyIndex::Parsed::~Parsed() {
  if (counted_) --alive;
}
LazyIndex::Parsed::Parsed(Parsed &&o) noexcept : values_(std::move(o.values_)) { o.counted_ = false; }
const json::Value &LazyIndex::Parsed::operator[](std::size_t i) const {
  return i < values_.size() && values_[i] ? *values_[i] : json::null_value();
}

std::size_t LazyIndex::parsed_alive() { return alive.load(); }
std::size_t LazyIndex::parsed_peak() { return peak.load(); }
void LazyIndex::reset_parsed_peak() { peak.store(alive.load()); }

LazyIndex::LazyIndex() = default;
LazyIndex::LazyIndex(LazyIndex &&) noexcept = default;
LazyIndex &LazyIndex::operator=(LazyIndex &&) noexcept = default;
LazyIndex::~LazyIndex() = default;

std::optional<LazyIndex> LazyIndex::load(const fs::path &root, const config::Limits &limits,
                                         std::vector<std::string> members) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return std::nullopt;
  check_members(members);
  LazyIndex index;
  index.members_ = std::move(members);
  index.shown_ = workspace::index_file(root).string();
  bool base = false;
  {
    io::Beneath store(root, "the store");
    // The index of a large store is far above one record's bound.
    auto f = std::make_unique<io::OpenFile>(store.open(workspace::kIndexRelpath, limits.max_input_bytes));
    if (f->refusal != io::Refusal::Missing) {
      if (!*f) throw json::ParseError(index.shown_ + ": not read: " + f->why);
      index.file_ = std::move(f);
      Scan(index).run();
      base = true;
    }
  }
  Journal journal = read_journal(root, limits);
  if (journal.lines.empty()) {
    if (!base) return std::nullopt;
    return index;
  }
  // As load_index: a base that is not an index is left as it is.
  if (base && !index.is_object_) return index;
  if (!base) {
    // The document a fold starts from when there is no index.json.
    index.schema_ = index_with_entries(json::Value(), {}).string_or("schema");
  }
  index.journal_shown_ = journal_file(root).string();
  std::vector<Entry> folded;
  folded.reserve(journal.lines.size());
  for (const auto &l : journal.lines) {
    Entry e;
    std::string source = index.journal_shown_ + " at byte " + std::to_string(l.offset);
    auto text = journal.entry_json(l);
    std::size_t at = json::skip_space(text, 0);
    if (Scan::note(index, text, at, true, 0, source, true, e) != json::Cut::Complete ||
        json::skip_space(text, at + e.size) != text.size()) {
      json::check_part(text, 0, source); // not JSON: throws, as parse() does
      throw json::ParseError(source + ": an entry cut short where it parses (a reader's fault)");
    }
    e.at = l.entry_at + at;
    e.in_journal = true;
    folded.push_back(e);
  }
  index.journal_ = std::move(journal.bytes);
  auto id_of = [&](const Entry &e) { return e.has_id ? index.id(e) : std::string_view(); };
  index.entries_ = fold_entries(std::move(index.entries_), std::move(folded), id_of);
  index.has_records_ = true;
  return index;
}

LazyIndex LazyIndex::from_text(std::string text, std::vector<std::string> members, const std::string &source) {
  check_members(members);
  LazyIndex index;
  index.members_ = std::move(members);
  index.shown_ = source;
  index.text_ = std::move(text);
  Scan(index, index.text_).run();
  return index;
}

std::string LazyIndex::bytes(const Entry &e, std::size_t from, std::size_t size) const {
  if (e.in_journal) return journal_.substr(e.at + from, size);
  if (!file_) return text_.substr(e.at + from, size);
  std::string out(size, '\0');
  std::size_t got = 0;
  while (got < size) {
    std::size_t n = file_->read_at(e.at + from + got, out.data() + got, size - got);
    if (n == 0) break;
    got += n;
  }
  if (got != size) throw json::ParseError(shown_ + ": changed while being read (an entry is no longer there)");
  return out;
}

LazyIndex::Parsed LazyIndex::parse(const Entry &e) const {
  // One read and one parse: from the first asked member's name to the last
  // one's value, a run of the entry's members.
  std::size_t from = e.size, to = 0;
  for (std::size_t m = 0; m < members_.size(); ++m)
    if (has(e, m)) {
      const auto &place = places_[e.members_at + m];
      from = std::min(from, place.at);
      to = std::max(to, place.end);
    }
  std::vector<std::optional<json::Value>> values(members_.size());
  if (from < to)
    values = json::parse_members(bytes(e, from, to - from), members_, e.in_journal ? 0 : kEntryDepth,
                                 e.in_journal ? journal_shown_ : shown_);
  return Parsed(std::move(values));
}

std::string LazyIndex::text(const Entry &e) const { return bytes(e, 0, e.size); }

std::size_t LazyIndex::held_bytes() const {
  return sizeof *this + entries_.capacity() * sizeof(Entry) + places_.capacity() * sizeof(Place) + ids_.capacity() +
         journal_.capacity() + text_.capacity() + shown_.capacity() + journal_shown_.capacity();
}

} // namespace otm::store
