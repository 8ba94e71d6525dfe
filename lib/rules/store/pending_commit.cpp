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

std::string unsafe_pending_path(const fs::path &root, const std::string &relpath) {
  if (relpath.empty()) return "an empty path";
  fs::path p(relpath);
  if (p.is_absolute()) return "an absolute path";
  if (p.lexically_normal().generic_string() != relpath) return "not a plain relative path";
  auto it = p.begin();
  std::string top = it->string();
  if (top != workspace::kRecordsDirName && top != "conflicts") return "outside records/ and conflicts/";
  if (relpath == workspace::kJournalRelpath) return "the index journal, which a commit only appends to";
  for (const auto &part : p) {
    std::string c = part.string();
    if (c.empty() || c == "." || c == "..") return "not a plain relative path";
  }
  // No symbolic link, and nothing but directories, on the way (the file
  // itself may be absent: a new record).
  fs::path at = root;
  std::size_t n = 0, parts = static_cast<std::size_t>(std::distance(p.begin(), p.end()));
  for (const auto &part : p) {
    at /= part;
    ++n;
    std::error_code ec;
    auto st = fs::symlink_status(at, ec);
    if (ec || !fs::exists(st)) break;
    if (fs::is_symlink(st)) return "through the symbolic link " + at.lexically_relative(root).generic_string();
    if (n < parts && !fs::is_directory(st))
      return "through " + at.lexically_relative(root).generic_string() + ", which is not a directory";
    if (n == parts && !fs::is_regular_file(st)) return "not a regular file";
  }
  return {};
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
  // A commit writes record files only, beneath the store: a description
  // naming anything else (hand-made, or pushed into a git-backed store) is
  // not otm's, and acting on it would write outside the store.
  for (const auto &f : c.files)
    if (auto why = unsafe_pending_path(root, f.relpath); !why.empty())
      throw io::IoError(p.string() + ": names '" + f.relpath + "' (" + why +
                        "), which no commit of the store writes: not a description of an interrupted commit that "
                        "otm wrote (it is never committed or pushed); nothing was done. Check the store, then remove "
                        "the file");
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
