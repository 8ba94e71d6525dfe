#include "store/index_keys.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

#include "io/beneath.hpp"
#include "io/file.hpp"
#include "store/index_journal.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::store {

namespace {

constexpr std::string_view kMagic = "otm-index-keys 1";
constexpr std::string_view kTrailer = "end\n";

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

// The fields of one key line (no newline).
using Fields = std::array<std::string_view, kKeyFields>;
bool split(std::string_view line, Fields &f) {
  std::size_t at = 0;
  for (int i = 0; i < kKeyFields; ++i) {
    std::size_t tab = i + 1 < kKeyFields ? line.find('\t', at) : line.size();
    if (tab == std::string_view::npos) return false;
    f[i] = line.substr(at, tab - at);
    at = tab + 1;
  }
  return true;
}

// What a scope query asks: the encoded vendor, arch, operator_family (empty:
// any) and dsl (empty: any; else that dsl or "any").
struct Want {
  std::array<std::string, 3> keys;
  std::string dsl;
  bool keeps(const Fields &f) const {
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

struct Stamp {
  long long size = -1, mtime_ns = 0, ino = 0;
  bool operator==(const Stamp &) const = default;
};

std::optional<Stamp> stamp_of(const fs::path &file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return Stamp{static_cast<long long>(st.st_size),
               static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec,
               static_cast<long long>(st.st_ino)};
}

std::string header(const Stamp &s, std::size_t rows, std::size_t by_id_end, std::size_t by_scope_end) {
  char buf[160];
  // Fixed widths, so the offsets can be computed before the header is.
  std::snprintf(buf, sizeof buf, "%s %020lld %020lld %020lld %012zu %020zu %020zu\n", kMagic.data(), s.size, s.mtime_ns,
                s.ino, rows, by_id_end, by_scope_end);
  return buf;
}
const std::size_t kHeaderSize = header(Stamp{}, 0, 0, 0).size();

std::string build_cache(const json::Value &index, const Stamp &stamp) {
  std::vector<std::string> by_id, by_scope;
  if (const auto *list = index.get("records").as_array()) {
    by_id.reserve(list->size());
    by_scope.reserve(list->size());
    for (const auto &e : *list) {
      std::string keys = entry_keys(e);
      Fields f;
      split(keys, f);
      by_id.push_back(std::string(f[4]) + "\t" + std::string(f[5]) + "\n");
      by_scope.push_back(std::move(keys) + "\n");
    }
  }
  std::sort(by_id.begin(), by_id.end());
  std::sort(by_scope.begin(), by_scope.end());
  std::string body;
  for (const auto &l : by_id) body += l;
  std::size_t by_id_end = kHeaderSize + body.size();
  for (const auto &l : by_scope) body += l;
  std::size_t by_scope_end = kHeaderSize + body.size();
  return header(stamp, by_id.size(), by_id_end, by_scope_end) + body + std::string(kTrailer);
}

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

} // namespace

std::string entry_keys(const json::Value &e) {
  const auto &scope = e.get("retrieval").get("scope");
  auto str = [](const json::Value &v) { return v.as_string() ? escape(*v.as_string()) : std::string(); };
  return scope_key(scope.get("vendor")) + "\t" + scope_key(scope.get("arch")) + "\t" +
         scope_key(scope.get("operator_family")) + "\t" + scope_key(scope.get("dsl")) + "\t" + str(e.get("id")) + "\t" +
         str(e.get("path")) + "\t" + str(e.get("episode_key"));
}

bool scope_keeps(const json::Value &incoming_scope, const json::Value &entry_scope) {
  json::Value retrieval = json::Value::object();
  retrieval.set("scope", entry_scope);
  json::Value entry = json::Value::object();
  entry.set("retrieval", std::move(retrieval));
  std::string keys = entry_keys(entry);
  Fields f;
  split(keys, f);
  return want_of(incoming_scope).keeps(f);
}

fs::path keys_cache_file(const fs::path &root) { return workspace::records_dir(root) / workspace::kKeysFileName; }

KeysIndex KeysIndex::open(const fs::path &root, const config::Limits &limits) {
  KeysIndex k;
  fs::path index_path = workspace::index_file(root);
  auto stamp = stamp_of(index_path);
  k.has_base_ = stamp.has_value();
  if (k.has_base_) {
    auto usable = [&](std::string_view b) {
      if (b.size() < kHeaderSize + kTrailer.size() || !b.starts_with(kMagic) || !b.ends_with(kTrailer)) return false;
      long long size = 0, mtime = 0, ino = 0;
      std::size_t rows = 0, id_end = 0, scope_end = 0;
      std::string head(b.substr(0, kHeaderSize));
      if (std::sscanf(head.c_str() + kMagic.size(), " %lld %lld %lld %zu %zu %zu", &size, &mtime, &ino, &rows, &id_end,
                      &scope_end) != 6)
        return false;
      if (!(Stamp{size, mtime, ino} == *stamp) || id_end < kHeaderSize || scope_end < id_end ||
          scope_end + kTrailer.size() != b.size())
        return false;
      k.by_id_at_ = kHeaderSize;
      k.by_id_end_ = id_end;
      k.by_scope_end_ = scope_end;
      return true;
    };
    k.map_ = io::MappedFile::open(keys_cache_file(root));
    if (k.map_ && usable(k.map_->bytes())) {
      k.bytes_ = k.map_->bytes();
    } else {
      k.map_.reset();
      // Stale or missing: rebuilt from the index as read now (stamped with
      // the identity seen before the read, so a replacement meanwhile shows
      // as stale next time).
      io::Beneath store(root, "the store");
      io::FileRead f = store.read(workspace::kIndexRelpath, limits.max_input_bytes);
      std::string shown = index_path.string();
      if (!f)
        throw json::ParseError(shown + ": not read: " + f.why +
                               (f.refusal == io::Refusal::TooLarge ? " (limits.max_input_bytes)" : ""));
      json::Value index = json::parse(f.content, shown);
      if (!index.is_object() || !index.get("records").is_array())
        throw json::ParseError(shown + ": not an index (an object with a \"records\" list)");
      k.built_ = build_cache(index, *stamp);
      try {
        io::write_file_atomic(keys_cache_file(root), k.built_, io::FileClass::Scratch);
      } catch (const std::exception &) {
        // a read-only store: the keys serve this process only
      }
      k.bytes_ = k.built_;
      usable(k.bytes_);
    }
  }
  Journal j = read_journal(root, limits);
  k.journal_lines_ = j.lines.size();
  k.journal_bytes_ = j.valid_end;
  for (const auto &l : j.lines) {
    Fields f;
    if (!split(j.keys(l), f)) continue;
    std::vector<std::string> row(f.begin(), f.end());
    std::string id = unescape(f[4]);
    k.journal_.insert_or_assign(std::move(id), std::move(row));
  }
  return k;
}

std::optional<std::string> KeysIndex::path_of(std::string_view id) const {
  if (auto it = journal_.find(id); it != journal_.end()) return unescape(it->second[5]);
  if (!has_base_) return std::nullopt;
  std::string key = escape(id) + "\t";
  std::size_t at = lower_bound_line(bytes_, by_id_at_, by_id_end_, key);
  if (at >= by_id_end_) return std::nullopt;
  std::size_t end = bytes_.find('\n', at);
  std::string_view line = bytes_.substr(at, end - at);
  if (!line.starts_with(key)) return std::nullopt;
  return unescape(line.substr(key.size()));
}

std::vector<KeyRow> KeysIndex::in_scope(const json::Value &scope) const {
  Want w = want_of(scope);
  std::vector<KeyRow> out;
  auto row = [](const Fields &f) { return KeyRow{unescape(f[4]), unescape(f[5]), unescape(f[6])}; };
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
      Fields f;
      if (!split(line, f) || !w.keeps(f)) continue;
      KeyRow r = row(f);
      if (journal_.count(r.id)) continue; // the journal's entry replaces it
      out.push_back(std::move(r));
    }
  }
  for (const auto &[id, fields] : journal_) {
    Fields f;
    for (int i = 0; i < kKeyFields; ++i) f[i] = fields[i];
    if (w.keeps(f)) out.push_back(row(f));
  }
  std::sort(out.begin(), out.end(), [](const KeyRow &a, const KeyRow &b) { return a.id < b.id; });
  return out;
}

void write_keys_cache(const fs::path &root, const json::Value &base_index) {
  auto stamp = stamp_of(workspace::index_file(root));
  if (!stamp) return;
  try {
    io::write_file_atomic(keys_cache_file(root), build_cache(base_index, *stamp), io::FileClass::Scratch);
  } catch (const std::exception &) {
    // rebuilt on the next open
  }
}

} // namespace otm::store
