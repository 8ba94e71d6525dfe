#include "store/pending_commit.hpp"

#include "io/file.hpp"
#include "store/index_journal.hpp"
#include "text/sha256.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"

namespace otm::store {

fs::path pending_commit_file(const fs::path &root) { return root / ".otm-commit"; }

json::Value to_json(const PendingCommit &c) {
  json::Value files = json::Value::array();
  for (const auto &f : c.files) {
    json::Value e = json::Value::object();
    e.set("path", f.relpath);
    e.set("new_sha256", f.new_sha256);
    e.set("old_bytes", f.old_bytes ? json::Value(*f.old_bytes) : json::Value());
    files.push_back(std::move(e));
  }
  json::Value doc = json::Value::object();
  doc.set("files", files);
  if (c.journal_offset) {
    doc.set("journal_offset", static_cast<long long>(*c.journal_offset));
    doc.set("journal_line_sha256", c.journal_line_sha256);
  } else {
    doc.set("index_sha256", c.index_sha256);
  }
  return doc;
}

std::optional<PendingCommit> read_pending_commit(const fs::path &root) {
  auto p = pending_commit_file(root);
  if (!io::is_regular_file(p)) return std::nullopt;
  json::Value doc;
  try {
    doc = json::parse_file(p);
  } catch (const json::ParseError &e) {
    throw io::IoError(std::string(e.what()) + ": a damaged record of an interrupted commit; restore the store from "
                                              "a backup or remove the file after checking records/");
  }
  PendingCommit c;
  c.index_sha256 = doc.string_or("index_sha256");
  if (auto off = doc.get("journal_offset").as_int(); off && *off >= 0) {
    c.journal_offset = static_cast<std::uint64_t>(*off);
    c.journal_line_sha256 = doc.string_or("journal_line_sha256");
  }
  if (const auto *files = doc.get("files").as_array())
    for (const auto &f : *files) {
      const auto &old = f.get("old_bytes");
      c.files.push_back({f.string_or("path"), f.string_or("new_sha256"),
                         old.is_string() ? std::optional<std::string>(*old.as_string()) : std::nullopt});
    }
  return c;
}

namespace {
std::optional<std::string> sha_of(const fs::path &p) {
  if (!io::is_regular_file(p)) return std::nullopt;
  try {
    return text::sha256_hex(io::read_file(p));
  } catch (const io::IoError &) {
    return std::nullopt;
  }
}
} // namespace

bool reached_commit_point(const fs::path &root, const PendingCommit &c) {
  if (c.journal_offset) return journal_has_line_at(root, *c.journal_offset, c.journal_line_sha256);
  return sha_of(workspace::index_file(root)) == c.index_sha256;
}

std::map<std::string, std::optional<std::string>> pending_view(const fs::path &root) {
  std::map<std::string, std::optional<std::string>> out;
  auto pending = read_pending_commit(root);
  if (!pending) return out;
  if (reached_commit_point(root, *pending)) return out; // done: all new
  for (const auto &f : pending->files)
    if (sha_of(root / f.relpath) == f.new_sha256) out.emplace(f.relpath, f.old_bytes);
  return out;
}

} // namespace otm::store
