#include "store/index_journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <charconv>

#include "io/beneath.hpp"
#include "store/index_keys.hpp"
#include "text/sha256.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::store {

namespace {

// The line starting at `at`, or nullopt when there is none complete there:
// its length field, hash and payload as written, ending in a newline.
struct Parsed {
  std::size_t end, payload_at, payload_size;
  std::string_view sha;
};
std::optional<Parsed> parse_line(std::string_view b, std::size_t at) {
  std::size_t sp = b.find(' ', at);
  if (sp == std::string_view::npos || sp == at || sp - at > 12) return std::nullopt;
  std::size_t len = 0;
  auto [p, ec] = std::from_chars(b.data() + at, b.data() + sp, len);
  if (ec != std::errc() || p != b.data() + sp) return std::nullopt;
  std::size_t sha_at = sp + 1;
  if (b.size() < sha_at + 65 || b[sha_at + 64] != ' ') return std::nullopt;
  std::size_t payload_at = sha_at + 65;
  if (b.size() - payload_at < len + 1 || b[payload_at + len] != '\n') return std::nullopt;
  return Parsed{payload_at + len + 1, payload_at, len, b.substr(sha_at, 64)};
}

bool hash_holds(std::string_view b, const Parsed &p) {
  return text::sha256_hex(b.substr(p.payload_at, p.payload_size)) == p.sha;
}

} // namespace

fs::path journal_file(const fs::path &root) { return workspace::records_dir(root) / workspace::kJournalFileName; }

JournalLineText journal_line(const json::Value &entry, std::string_view summary) {
  std::string payload = entry_keys(entry) + "\t" + std::string(summary) + "\t" + json::to_line(entry);
  JournalLineText out;
  out.sha256 = text::sha256_hex(payload);
  out.text = std::to_string(payload.size()) + " " + out.sha256 + " " + payload + "\n";
  return out;
}

Journal read_journal(const fs::path &root, const config::Limits &limits) {
  Journal j;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return j;
  io::Beneath store(root, "the store");
  io::FileRead f = store.read(workspace::kJournalRelpath, limits.max_input_bytes);
  if (f.refusal == io::Refusal::Missing) return j;
  std::string shown = journal_file(root).string();
  if (!f) throw json::ParseError(shown + ": not read: " + f.why);
  j.bytes = std::move(f.content);
  std::string_view b = j.bytes;
  std::size_t at = 0;
  while (at < b.size()) {
    auto p = parse_line(b, at);
    bool last = p && p->end == b.size();
    if (!p || (last && !hash_holds(b, *p))) {
      // A torn append is the last thing in the file: no newline in it but
      // possibly its own final one.
      std::size_t nl = b.find('\n', at);
      if (nl == std::string_view::npos || nl + 1 == b.size()) break;
      throw json::ParseError(shown + ": damaged at byte " + std::to_string(at) +
                             " (a line that is not the last does not parse); restore the store from a backup");
    }
    std::string_view payload = b.substr(p->payload_at, p->payload_size);
    std::size_t tab = 0;
    for (int i = 0; i < kKeyFields && tab != std::string_view::npos; ++i) tab = payload.find('\t', i ? tab + 1 : 0);
    if (tab == std::string_view::npos)
      throw json::ParseError(shown + ": damaged at byte " + std::to_string(at) + " (a line without its key fields)");
    JournalLine line{at, p->end, p->payload_at, tab, 0, 0, p->payload_at + tab + 1, payload.size() - tab - 1};
    // The summary, in a line that has one (see above).
    if (std::size_t next = payload.find('\t', tab + 1); next != std::string_view::npos) {
      line.summary_at = p->payload_at + tab + 1;
      line.summary_size = next - tab - 1;
      line.entry_at = p->payload_at + next + 1;
      line.entry_size = payload.size() - next - 1;
    }
    j.lines.push_back(line);
    at = p->end;
  }
  j.valid_end = at;
  return j;
}

std::vector<json::Value> journal_entries(const Journal &journal, const fs::path &root) {
  std::vector<json::Value> out;
  out.reserve(journal.lines.size());
  std::string shown = journal_file(root).string();
  for (const auto &l : journal.lines)
    out.push_back(json::parse(journal.entry_json(l), shown + " at byte " + std::to_string(l.offset)));
  return out;
}

bool journal_has_line_at(const fs::path &root, std::uint64_t offset, const std::string &sha256) {
  int fd = ::open(journal_file(root).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  // One line: its header, then as many bytes as it says.
  std::string b(96, '\0');
  ssize_t n = ::pread(fd, b.data(), b.size(), static_cast<off_t>(offset));
  bool ok = false;
  if (n > 0) {
    b.resize(static_cast<std::size_t>(n));
    std::size_t sp = b.find(' ');
    std::size_t len = 0;
    if (sp != std::string::npos && std::from_chars(b.data(), b.data() + sp, len).ec == std::errc() &&
        len < (1u << 30)) {
      std::string line(sp + 67 + len, '\0');
      ssize_t m = ::pread(fd, line.data(), line.size(), static_cast<off_t>(offset));
      if (m == static_cast<ssize_t>(line.size())) {
        auto p = parse_line(line, 0);
        ok = p && p->sha == sha256 && hash_holds(line, *p);
      }
    }
  }
  ::close(fd);
  return ok;
}

} // namespace otm::store
