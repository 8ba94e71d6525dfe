#include "store/index_keys.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <exception>
#include <thread>
#include <unordered_map>

#include "io/beneath.hpp"
#include "io/file.hpp"
#include "store/candidate_summary.hpp"
#include "store/index_entry.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/parse_part.hpp"
#include "json/write.hpp"

namespace otm::store {

namespace {

// Version 2 added each entry's place in index.json and its summary; a cache
// of another version is rebuilt.
constexpr std::string_view kMagic = "otm-index-keys 2";
constexpr std::string_view kTrailer = "end\n";
// The summary field of a line: "<offset>:<size>" of the summary in the
// summaries section, or this for an entry the keys have no summary for.
constexpr std::string_view kNoSummary = "-";

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '%': out += "%25"; break;
    case '\t': out += "%09"; break;
    case '\n': out += "%0A"; break;
    case '\r': out += "%0D"; break;
    default: out += c;
    }
  }
  return out;
}

std::string unescape(std::string_view s) {
  if (s.find('%') == std::string_view::npos) return std::string(s);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      unsigned v = 0;
      if (std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16).ec == std::errc()) {
        out += static_cast<char>(v);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

std::string scope_key(const json::Value &v) {
  if (v.is_null()) return "-";
  if (const auto *s = v.as_string()) return "=" + escape(*s);
  return "#" + escape(json::to_line(v));
}

// The first `N` tab-separated fields of a line (no newline); the last takes
// the rest of the line.
template <std::size_t N> bool split(std::string_view line, std::array<std::string_view, N> &f) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < N; ++i) {
    std::size_t tab = i + 1 < N ? line.find('\t', at) : line.size();
    if (tab == std::string_view::npos) return false;
    f[i] = line.substr(at, tab - at);
    at = tab + 1;
  }
  return true;
}
using Fields = std::array<std::string_view, kKeyFields>;
// A line of the by-scope section: the key fields and the summary's offset.
using ScopeFields = std::array<std::string_view, kKeyFields + 1>;
// A line of the by-id section: id, path, entry offset, entry size, summary
// offset.
using IdFields = std::array<std::string_view, 5>;

std::size_t number(std::string_view s) {
  std::size_t n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  return ec == std::errc() && p == s.data() + s.size() ? n : std::string_view::npos;
}

// What a scope query asks: the encoded vendor, arch, operator_family (empty:
// any) and dsl (empty: any; else that dsl or "any").
struct Want {
  std::array<std::string, 3> keys;
  std::string dsl;
  template <typename F> bool keeps(const F &f) const {
    for (int i = 0; i < 3; ++i)
      if (!keys[i].empty() && f[i] != keys[i]) return false;
    return dsl.empty() || f[3] == dsl || f[3] == "=any";
  }
};

Want want_of(const json::Value &scope) {
  Want w;
  const char *names[] = {"vendor", "arch", "operator_family"};
  for (int i = 0; i < 3; ++i)
    if (const auto &v = scope.get(names[i]); v.truthy()) w.keys[i] = scope_key(v);
  const auto &dsl = scope.get("dsl");
  if (dsl.truthy() && !(dsl.as_string() && *dsl.as_string() == "any")) w.dsl = scope_key(dsl);
  return w;
}

IndexStamp stamp_of(const struct stat &st) {
  return {static_cast<long long>(st.st_size),
          static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec,
          static_cast<long long>(st.st_ino)};
}

std::optional<IndexStamp> stamp_of(const fs::path &file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return stamp_of(st);
}

std::string header(const IndexStamp &s, std::size_t rows, std::size_t by_id_end, std::size_t by_scope_end) {
  char buf[160];
  // Fixed widths, so the offsets can be computed before the header is.
  std::snprintf(buf, sizeof buf, "%s %020lld %020lld %020lld %012zu %020zu %020zu\n", kMagic.data(), s.size, s.mtime_ns,
                s.ino, rows, by_id_end, by_scope_end);
  return buf;
}
const std::size_t kHeaderSize = header(IndexStamp{}, 0, 0, 0).size();

// The first line in [lo, hi) of `b` (whole lines) not less than `key`.
std::size_t lower_bound_line(std::string_view b, std::size_t lo, std::size_t hi, std::string_view key) {
  // [lo, hi) holds whole lines and b[lo - 1] is a newline, so the search
  // back for the start of mid's line stops within one line.
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    std::size_t start = lo;
    if (mid > lo)
      if (std::size_t nl = b.rfind('\n', mid - 1); nl != std::string_view::npos && nl >= lo) start = nl + 1;
    std::size_t end = b.find('\n', start);
    if (b.substr(start, end - start) < key)
      lo = end + 1;
    else
      hi = start;
  }
  return lo;
}

// The candidate summary of the record an entry names, or "" when it cannot
// be read (a missing file: `match` then reads it again, and drops it).
std::string summary_from_record(const io::Beneath &store, const json::Value &entry, const config::Limits &limits) {
  StoredRecord r;
  r.relpath = IndexEntry::from_json(entry).path;
  if (r.relpath.empty()) return {};
  read_record(store, r, limits);
  if (!r.parse_error.empty()) return {};
  return candidate_summary_text(r.record);
}

// records/index.json as `text`, laid out: the index's members parsed except
// its entries, whose texts are returned (each parsed at its depth as it is
// used, so a broken index is refused here as by store::load_index). Throws
// json::ParseError.
std::vector<std::string_view> index_entry_texts(std::string_view text, const std::string &shown) {
  auto layout = json::object_layout(text, "records", shown);
  if (!layout || !layout->elements)
    throw json::ParseError(shown + ": not an index (an object with a \"records\" list)");
  for (const auto &[key, value] : layout->members) json::check_part(value, json::ObjectLayout::kMemberDepth, shown);
  return std::move(*layout->elements);
}

// What a rebuild adds to the keys for one entry of index.json.
struct RebuiltRow {
  std::string keys;
  std::size_t at = 0, size = 0;
  std::string summary;
};

std::vector<RebuiltRow> rebuilt_rows(const io::Beneath &store, std::string_view index_text,
                                     const std::vector<std::string_view> &texts, const std::string &shown,
                                     const config::Limits &limits);

} // namespace

std::string entry_keys(const json::Value &e) {
  const auto &scope = e.get("retrieval").get("scope");
  auto str = [](const json::Value &v) { return v.as_string() ? escape(*v.as_string()) : std::string(); };
  return scope_key(scope.get("vendor")) + "\t" + scope_key(scope.get("arch")) + "\t" +
         scope_key(scope.get("operator_family")) + "\t" + scope_key(scope.get("dsl")) + "\t" + str(e.get("id")) + "\t" +
         str(e.get("path")) + "\t" + str(e.get("episode_key"));
}

bool scope_keeps(const json::Value &incoming_scope, const json::Value &entry_scope) {
  // The entry's first four key fields, as entry_keys makes them.
  std::array<std::string, 4> f{scope_key(entry_scope.get("vendor")), scope_key(entry_scope.get("arch")),
                               scope_key(entry_scope.get("operator_family")), scope_key(entry_scope.get("dsl"))};
  return want_of(incoming_scope).keeps(f);
}

fs::path keys_cache_file(const fs::path &root) { return workspace::records_dir(root) / workspace::kKeysFileName; }

void KeysCacheBuilder::add(const json::Value &entry, std::size_t at, std::size_t size, std::string_view summary) {
  add(entry_keys(entry), at, size, summary);
}

void KeysCacheBuilder::add(std::string keys, std::size_t at, std::size_t size, std::string_view summary) {
  Fields f;
  split(keys, f);
  std::string summary_field(kNoSummary);
  if (!summary.empty()) {
    summary_field = std::to_string(summaries_.size()) + ":" + std::to_string(summary.size());
    summaries_.append(summary);
    summaries_ += '\n';
  }
  by_id_.push_back(std::string(f[4]) + "\t" + std::string(f[5]) + "\t" + std::to_string(at) + "\t" +
                   std::to_string(size) + "\t" + summary_field + "\n");
  by_scope_.push_back(std::move(keys) + "\t" + summary_field + "\n");
}

std::string KeysCacheBuilder::bytes(const IndexStamp &stamp) const {
  std::vector<const std::string *> by_id, by_scope;
  for (const auto &l : by_id_) by_id.push_back(&l);
  for (const auto &l : by_scope_) by_scope.push_back(&l);
  auto less = [](const std::string *a, const std::string *b) { return *a < *b; };
  std::sort(by_id.begin(), by_id.end(), less);
  std::sort(by_scope.begin(), by_scope.end(), less);
  std::size_t id_bytes = 0, scope_bytes = 0;
  for (const auto *l : by_id) id_bytes += l->size();
  for (const auto *l : by_scope) scope_bytes += l->size();
  std::string out = header(stamp, by_id.size(), kHeaderSize + id_bytes, kHeaderSize + id_bytes + scope_bytes);
  out.reserve(kHeaderSize + id_bytes + scope_bytes + summaries_.size() + kTrailer.size());
  for (const auto *l : by_id) out += *l;
  for (const auto *l : by_scope) out += *l;
  out += summaries_;
  out += kTrailer;
  return out;
}

void KeysCacheBuilder::write(const fs::path &root) const {
  auto stamp = stamp_of(workspace::index_file(root));
  if (!stamp) return;
  try {
    io::write_file_atomic(keys_cache_file(root), bytes(*stamp), io::FileClass::Scratch);
  } catch (const std::exception &) {
    // rebuilt on the next open
  }
}

namespace {

// Each entry's keys, place and summary: reading every record is the bulk of
// a rebuild (100,000 files at the largest store), so two threads share it,
// each taking half the entries in order.
std::vector<RebuiltRow> rebuilt_rows(const io::Beneath &store, std::string_view index_text,
                                     const std::vector<std::string_view> &texts, const std::string &shown,
                                     const config::Limits &limits) {
  std::vector<RebuiltRow> rows(texts.size());
  auto fill = [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      json::Value entry = json::parse_part(texts[i], json::ObjectLayout::kElementDepth, shown);
      rows[i] = {entry_keys(entry), static_cast<std::size_t>(texts[i].data() - index_text.data()), texts[i].size(),
                 summary_from_record(store, entry, limits)};
    }
  };
  constexpr std::size_t kWorthAThread = 2000;
  if (texts.size() < kWorthAThread) {
    fill(0, texts.size());
    return rows;
  }
  std::size_t half = texts.size() / 2;
  std::exception_ptr failed;
  std::thread second([&] {
    try {
      fill(half, texts.size());
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    fill(0, half);
  } catch (...) {
    second.join();
    throw;
  }
  second.join();
  if (failed) std::rethrow_exception(failed);
  return rows;
}

} // namespace

KeysIndex KeysIndex::open(const fs::path &root, const config::Limits &limits) {
  KeysIndex k;
  k.root_ = root;
  fs::path index_path = workspace::index_file(root);
  auto stamp = stamp_of(index_path);
  k.has_base_ = stamp.has_value();
  if (k.has_base_) {
    k.stamp_ = *stamp;
    auto usable = [&](std::string_view b) {
      if (b.size() < kHeaderSize + kTrailer.size() || !b.starts_with(kMagic) || !b.ends_with(kTrailer) ||
          b[kMagic.size()] != ' ')
        return false;
      long long size = 0, mtime = 0, ino = 0;
      std::size_t rows = 0, id_end = 0, scope_end = 0;
      std::string head(b.substr(0, kHeaderSize));
      if (std::sscanf(head.c_str() + kMagic.size(), " %lld %lld %lld %zu %zu %zu", &size, &mtime, &ino, &rows, &id_end,
                      &scope_end) != 6)
        return false;
      if (!(IndexStamp{size, mtime, ino} == *stamp) || id_end < kHeaderSize || scope_end < id_end ||
          scope_end + kTrailer.size() > b.size() || (id_end > kHeaderSize && b[id_end - 1] != '\n') ||
          (scope_end > id_end && b[scope_end - 1] != '\n'))
        return false;
      k.by_id_at_ = kHeaderSize;
      k.by_id_end_ = id_end;
      k.by_scope_end_ = scope_end;
      k.summaries_end_ = b.size() - kTrailer.size();
      return true;
    };
    k.map_ = io::MappedFile::open(keys_cache_file(root));
    if (k.map_ && usable(k.map_->bytes())) {
      k.bytes_ = k.map_->bytes();
    } else {
      k.map_.reset();
      // Stale, missing or of another version: rebuilt from the index as
      // read now (stamped with the identity seen before the read, so a
      // replacement meanwhile shows as stale next time) and every record
      // it names.
      io::Beneath store(root, "the store");
      io::FileRead f = store.read(workspace::kIndexRelpath, limits.max_input_bytes);
      std::string shown = index_path.string();
      if (!f)
        throw json::ParseError(shown + ": not read: " + f.why +
                               (f.refusal == io::Refusal::TooLarge ? " (limits.max_input_bytes)" : ""));
      KeysCacheBuilder builder;
      for (auto &row : rebuilt_rows(store, f.content, index_entry_texts(f.content, shown), shown, limits))
        builder.add(std::move(row.keys), row.at, row.size, row.summary);
      k.built_ = builder.bytes(*stamp);
      try {
        io::write_file_atomic(keys_cache_file(root), k.built_, io::FileClass::Scratch);
      } catch (const std::exception &) {
        // a read-only store: the keys serve this process only
      }
      k.bytes_ = k.built_;
      usable(k.bytes_);
    }
  }
  k.journal_ = read_journal(root, limits);
  for (std::size_t i = 0; i < k.journal_.lines.size(); ++i) {
    Fields f;
    if (!split(k.journal_.keys(k.journal_.lines[i]), f)) continue;
    k.journal_rows_.insert_or_assign(unescape(f[4]), i);
  }
  return k;
}

struct KeysIndex::BaseLine {
  std::string path;
  std::size_t entry_at, entry_size;
  std::string_view summary;
};

std::string_view KeysIndex::summary_at(std::string_view field) const {
  std::size_t colon = field.find(':');
  if (colon == std::string_view::npos) return {};
  std::size_t at = number(field.substr(0, colon)), size = number(field.substr(colon + 1));
  if (at == std::string_view::npos || size == std::string_view::npos || at > summaries_end_ - by_scope_end_ ||
      size > summaries_end_ - by_scope_end_ - at)
    return {};
  return bytes_.substr(by_scope_end_ + at, size);
}

std::optional<KeysIndex::BaseLine> KeysIndex::base_line(std::string_view id) const {
  if (!has_base_) return std::nullopt;
  std::string key = escape(id) + "\t";
  std::size_t at = lower_bound_line(bytes_, by_id_at_, by_id_end_, key);
  if (at >= by_id_end_) return std::nullopt;
  std::size_t end = bytes_.find('\n', at);
  std::string_view line = bytes_.substr(at, end - at);
  IdFields f;
  if (!line.starts_with(key) || !split(line, f)) return std::nullopt;
  return BaseLine{unescape(f[1]), number(f[2]), number(f[3]), summary_at(f[4])};
}

std::optional<std::string> KeysIndex::path_of(std::string_view id) const {
  if (auto it = journal_rows_.find(id); it != journal_rows_.end()) {
    Fields f;
    split(journal_.keys(journal_.lines[it->second]), f);
    return unescape(f[5]);
  }
  if (auto line = base_line(id)) return std::move(line->path);
  return std::nullopt;
}

std::optional<std::string_view> KeysIndex::summary_of(std::string_view id) const {
  if (auto it = journal_rows_.find(id); it != journal_rows_.end()) return journal_.summary(journal_.lines[it->second]);
  if (auto line = base_line(id)) return line->summary;
  return std::nullopt;
}

std::optional<std::string> KeysIndex::entry_text(std::string_view id) const {
  if (auto it = journal_rows_.find(id); it != journal_rows_.end())
    return std::string(journal_.entry_json(journal_.lines[it->second]));
  auto line = base_line(id);
  if (!line || line->entry_at == std::string_view::npos || line->entry_size == std::string_view::npos)
    return std::nullopt;
  int fd = ::open(workspace::index_file(root_).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && stamp_of(st) == stamp_) {
    std::string text(line->entry_size, '\0');
    if (::pread(fd, text.data(), text.size(), static_cast<off_t>(line->entry_at)) == static_cast<ssize_t>(text.size()))
      out = std::move(text);
  }
  ::close(fd);
  return out;
}

std::vector<KeysIndex::BaseRow> KeysIndex::base_rows() const {
  std::vector<BaseRow> rows;
  if (!has_base_) return rows;
  // The by-scope lines carry the key fields, the by-id lines the places:
  // joined by the (escaped) id.
  std::unordered_map<std::string_view, std::size_t> by_id;
  for (std::size_t at = by_id_end_; at < by_scope_end_;) {
    std::size_t end = bytes_.find('\n', at);
    std::string_view line = bytes_.substr(at, end - at);
    at = end + 1;
    ScopeFields f;
    if (!split(line, f)) continue;
    BaseRow r;
    r.keys = line.substr(0, static_cast<std::size_t>(f[kKeyFields].data() - line.data()) - 1);
    r.id = unescape(f[4]);
    r.summary = summary_at(f[kKeyFields]);
    by_id.emplace(f[4], rows.size());
    rows.push_back(std::move(r));
  }
  for (std::size_t at = by_id_at_; at < by_id_end_;) {
    std::size_t end = bytes_.find('\n', at);
    std::string_view line = bytes_.substr(at, end - at);
    at = end + 1;
    IdFields f;
    if (!split(line, f)) continue;
    if (auto it = by_id.find(f[0]); it != by_id.end()) {
      rows[it->second].at = number(f[2]);
      rows[it->second].size = number(f[3]);
    }
  }
  std::sort(rows.begin(), rows.end(), [](const BaseRow &a, const BaseRow &b) { return a.at < b.at; });
  return rows;
}

ScopeRows KeysIndex::in_scope(const json::Value &scope) const {
  Want w = want_of(scope);
  ScopeRows result;
  auto &out = result.rows;
  auto field = [&](std::string_view f) -> std::string_view {
    if (f.find('%') == std::string_view::npos) return f;
    return result.unescaped.emplace_back(unescape(f));
  };
  auto row = [&](const auto &f, std::string_view summary) {
    return KeyRow{field(f[4]), field(f[5]), field(f[6]), summary};
  };
  if (has_base_) {
    // Lines sorted by vendor, arch, operator_family: the leading keys that
    // are set narrow the range, the rest filter it.
    std::string prefix;
    for (const auto &key : w.keys) {
      if (key.empty()) break;
      prefix += key + "\t";
    }
    std::size_t at = lower_bound_line(bytes_, by_id_end_, by_scope_end_, prefix);
    while (at < by_scope_end_) {
      std::size_t end = bytes_.find('\n', at);
      std::string_view line = bytes_.substr(at, end - at);
      at = end + 1;
      if (!line.starts_with(prefix)) break;
      ScopeFields f;
      if (!split(line, f) || !w.keeps(f)) continue;
      KeyRow r = row(f, summary_at(f[kKeyFields]));
      if (!journal_rows_.empty() && journal_rows_.count(r.id)) continue; // the journal's entry replaces it
      out.push_back(r);
    }
  }
  for (const auto &[id, i] : journal_rows_) {
    const auto &l = journal_.lines[i];
    Fields f;
    if (split(journal_.keys(l), f) && w.keeps(f)) out.push_back(row(f, journal_.summary(l)));
  }
  std::sort(out.begin(), out.end(), [](const KeyRow &a, const KeyRow &b) { return a.id < b.id; });
  return result;
}

void write_keys_cache(const fs::path &root, std::string_view index_text, const json::Value &index,
                      const KeysIndex &before, const config::Limits &limits) {
  const auto *entries = index.get("records").as_array();
  if (!entries) return;
  std::vector<std::string_view> texts;
  try {
    texts = index_entry_texts(index_text, workspace::index_file(root).string());
  } catch (const std::exception &) {
    return; // rebuilt on the next open
  }
  if (texts.size() != entries->size()) return;
  std::optional<io::Beneath> store;
  KeysCacheBuilder builder;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto &e = (*entries)[i];
    std::string_view summary = before.summary_of(IndexEntry::from_json(e).id).value_or(std::string_view());
    std::string read;
    if (summary.empty()) {
      if (!store) store.emplace(root, "the store");
      read = summary_from_record(*store, e, limits);
      summary = read;
    }
    builder.add(e, static_cast<std::size_t>(texts[i].data() - index_text.data()), texts[i].size(), summary);
  }
  builder.write(root);
}

} // namespace otm::store
