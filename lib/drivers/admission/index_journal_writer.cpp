#include "admission/index_journal_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "io/beneath.hpp"
#include "io/file.hpp"
#include "store/index_entry.hpp"
#include "store/index_journal.hpp"
#include "store/index_keys.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/value_cut.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace fs = std::filesystem;

namespace {
[[noreturn]] void fail(const fs::path &p, const std::string &what) {
  throw io::IoError(p.string() + ": cannot " + what + " (" + std::strerror(errno) + ")");
}
} // namespace

void append_journal_line(const fs::path &root, std::uint64_t offset, std::string_view line, bool flush) {
  fs::path p = store::journal_file(root);
  int fd = ::open(p.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) fail(p, "open the index journal");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(p, "use the index journal");
  }
  if (static_cast<std::uint64_t>(st.st_size) != offset) {
    ::close(fd);
    throw io::IoError(p.string() + ": changed under the store's lock (" + std::to_string(st.st_size) +
                      " bytes, expected " + std::to_string(offset) + "); nothing was appended");
  }
  try {
    io::write_all(fd, line, p);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (flush && ::fsync(fd) != 0) {
    ::close(fd);
    fail(p, "flush the index journal");
  }
  ::close(fd);
  if (flush && offset == 0) io::fsync_directory(p.parent_path());
}

void truncate_journal(const fs::path &root, std::uint64_t length) {
  fs::path p = store::journal_file(root);
  int fd = ::open(p.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return;
    fail(p, "open the index journal");
  }
  struct stat st {};
  bool longer = ::fstat(fd, &st) == 0 && static_cast<std::uint64_t>(st.st_size) > length;
  if (longer && (::ftruncate(fd, static_cast<off_t>(length)) != 0 || ::fsync(fd) != 0)) {
    ::close(fd);
    fail(p, "truncate the index journal");
  }
  ::close(fd);
}

store::Journal journal_without_torn_tail(const fs::path &root, const config::Limits &limits) {
  store::Journal j;
  try {
    j = store::read_journal(root, limits);
  } catch (const json::ParseError &e) {
    throw io::IoError(std::string(e.what()));
  }
  if (j.torn_tail()) truncate_journal(root, j.valid_end);
  return j;
}

namespace {

// The last upsert of each id in the journal.
struct Upsert {
  json::Value entry;
  std::string_view keys, summary;
};

// The entry as the index's pretty layout writes it at the depth of its
// neighbours: every line after the first indented by `indent`.
std::string entry_text_at(const json::Value &entry, std::string_view indent) {
  std::string pretty = json::to_pretty(entry);
  if (!pretty.empty() && pretty.back() == '\n') pretty.pop_back();
  std::string out;
  out.reserve(pretty.size() + pretty.size() / 8);
  for (char c : pretty) {
    out += c;
    if (c == '\n') out.append(indent);
  }
  return out;
}

// records/index.json (`text`) with the upserts spliced in, and its keys:
// every byte outside the changed entries and `count` stays the old file's,
// so the new index differs from the old by the changed entries alone (a
// small git delta) and no entry is parsed. nullopt when the file is not an
// index whose entries are sorted by id, laid out one separator apart and
// described exactly by the keys (`before`): the caller then rewrites it
// whole.
std::optional<std::string> spliced_index(std::string_view text, const store::KeysIndex &before,
                                         const std::map<std::string, Upsert, std::less<>> &upserts,
                                         store::KeysCacheBuilder &keys, const std::string &shown) {
  std::optional<json::ObjectLayout> layout;
  try {
    layout = json::object_layout(text, "records", shown);
  } catch (const json::ParseError &) {
    return std::nullopt;
  }
  if (!layout || !layout->elements || layout->elements->empty()) return std::nullopt;
  const auto &elements = *layout->elements;
  std::string_view count;
  for (const auto &[key, value] : layout->members)
    if (key == "count") count = value;
  if (count.empty()) return std::nullopt;
  auto rows = before.base_rows();
  if (rows.size() != elements.size()) return std::nullopt;
  auto at_of = [&](std::string_view v) { return static_cast<std::size_t>(v.data() - text.data()); };
  // An entry's text without the whitespace the cutter leaves after the last
  // one (before the closing bracket).
  auto end_of = [&](std::string_view v) {
    std::size_t end = at_of(v) + v.size();
    while (end > at_of(v) && json::is_space(text[end - 1])) --end;
    return end;
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    // The last entry's size with or without the whitespace before the
    // closing bracket: keys built from a parse count it, a splice's own
    // keys (below) do not, and the batch after a splice must splice too.
    std::size_t size = rows[i].size;
    if (rows[i].at != at_of(elements[i]) || (size != elements[i].size() && size != end_of(elements[i]) - rows[i].at))
      return std::nullopt;
    if (i && !(rows[i - 1].id < rows[i].id)) return std::nullopt; // not sorted by id, or an id twice
  }
  // The neighbours' indent and separator.
  std::size_t first = at_of(elements.front());
  std::size_t line_start = text.rfind('\n', first);
  if (line_start == std::string_view::npos) return std::nullopt;
  std::string_view indent = text.substr(line_start + 1, first - line_start - 1);
  if (indent.find_first_not_of(' ') != std::string_view::npos) return std::nullopt;
  std::string sep = ",\n" + std::string(indent);
  for (std::size_t i = 1; i < elements.size(); ++i) {
    std::size_t gap_at = end_of(elements[i - 1]);
    if (text.substr(gap_at, at_of(elements[i]) - gap_at) != sep) return std::nullopt;
  }
  std::size_t count_at = at_of(count), count_end = count_at + count.size();
  std::size_t last_end = end_of(elements.back());
  if (count_at > first && count_at < last_end) return std::nullopt;

  // Rows are sorted by id (checked above): one merge counts the new ids.
  std::size_t total = elements.size();
  {
    std::size_t r = 0;
    for (const auto &[id, u] : upserts) {
      while (r < rows.size() && rows[r].id < id) ++r;
      if (r == rows.size() || rows[r].id != id) ++total;
    }
  }
  std::string out;
  out.reserve(text.size() + upserts.size() * 4096);
  std::size_t cur = 0;
  auto copy_to = [&](std::size_t pos) {
    out.append(text.substr(cur, pos - cur));
    cur = pos;
  };
  auto put_count = [&] {
    copy_to(count_at);
    out += std::to_string(total);
    cur = count_end;
  };
  if (count_at < first) put_count();
  auto added = [&](const Upsert &u) {
    std::string t = entry_text_at(u.entry, indent);
    keys.add(std::string(u.keys), out.size(), t.size(), u.summary);
    out += t;
  };
  auto next = upserts.begin();
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const auto &row = rows[i];
    std::size_t at = at_of(elements[i]);
    for (; next != upserts.end() && next->first < row.id; ++next) {
      copy_to(at);
      added(next->second);
      out += sep;
    }
    copy_to(at);
    std::size_t end = end_of(elements[i]);
    if (next != upserts.end() && next->first == row.id) {
      added(next->second);
      cur = end;
      ++next;
    } else {
      keys.add(std::string(row.keys), out.size(), end - at, row.summary);
      copy_to(end);
    }
  }
  copy_to(last_end);
  for (; next != upserts.end(); ++next) {
    out += sep;
    added(next->second);
  }
  if (count_at >= last_end) put_count();
  copy_to(text.size());
  return out;
}

} // namespace

bool compact_index(const fs::path &root, const config::Limits &limits,
                   const std::function<void(const std::string &)> &before_write) {
  store::Journal journal;
  try {
    journal = store::read_journal(root, limits);
  } catch (const json::ParseError &e) {
    throw io::IoError(std::string(e.what()) + "; the live index is broken: rebuild it before compacting");
  }
  if (journal.lines.empty()) return false;
  const fs::path index_path = workspace::index_file(root);
  std::optional<std::string> text;
  std::optional<store::KeysIndex> before;
  std::map<std::string, Upsert, std::less<>> upserts;
  bool summaries = true;
  try {
    // The keys of the index being folded: the new keys take their places
    // and summaries (no record is read).
    before = store::KeysIndex::open(root, limits);
    auto entries = store::journal_entries(journal, root);
    for (std::size_t i = 0; i < entries.size(); ++i) {
      std::string id = store::IndexEntry::from_json(entries[i]).id;
      if (id.empty()) summaries = false; // an entry without an id: the whole rewrite folds it by the rule
      const auto &line = journal.lines[i];
      if (journal.summary(line).empty()) summaries = false;
      upserts.insert_or_assign(std::move(id), Upsert{std::move(entries[i]), journal.keys(line), journal.summary(line)});
    }
    io::Beneath store(root, "the store");
    io::FileRead f = store.read(workspace::kIndexRelpath, limits.max_input_bytes);
    if (f.refusal != io::Refusal::Missing) {
      if (!f) throw json::ParseError(index_path.string() + ": not read: " + f.why);
      text = std::move(f.content);
    }
  } catch (const json::ParseError &e) {
    throw io::IoError(std::string(e.what()) + "; the live index is broken: rebuild it before compacting");
  }
  store::KeysCacheBuilder keys;
  std::optional<std::string> spliced;
  if (text && summaries) spliced = spliced_index(*text, *before, upserts, keys, index_path.string());
  if (spliced) {
    if (before_write) before_write(*spliced);
    io::write_file_atomic(index_path, *spliced, io::FileClass::Live);
  } else {
    // Rewritten whole: an index of another layout (or none yet).
    std::optional<json::Value> index;
    try {
      index = store::load_index(root, limits);
    } catch (const json::ParseError &e) {
      throw io::IoError(std::string(e.what()) + "; the live index is broken: rebuild it before compacting");
    }
    if (!index || !index->is_object() || !index->get("records").is_array())
      throw io::IoError(index_path.string() +
                        ": not an index (an object with a \"records\" list); rebuild it before compacting");
    std::string whole = json::to_pretty(*index);
    if (before_write) before_write(whole);
    io::write_file_atomic(index_path, whole, io::FileClass::Live);
    fs::path j = store::journal_file(root);
    if (::unlink(j.c_str()) != 0 && errno != ENOENT) fail(j, "remove the index journal");
    io::fsync_directory(j.parent_path());
    store::write_keys_cache(root, whole, *index, *before, limits);
    return true;
  }
  fs::path j = store::journal_file(root);
  if (::unlink(j.c_str()) != 0 && errno != ENOENT) fail(j, "remove the index journal");
  io::fsync_directory(j.parent_path());
  keys.write(root);
  return true;
}

} // namespace otm::admission
