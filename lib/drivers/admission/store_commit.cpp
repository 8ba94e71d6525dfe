#include "admission/store_commit.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "store/pending_commit.hpp"
#include "text/sha256.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace fs = std::filesystem;

namespace {

// Creates the missing directories above `file` and flushes each new one's
// entry into its parent, so a new scope survives a power loss with the
// record in it.
void make_parents_durable(const fs::path &file) {
  std::vector<fs::path> missing;
  for (fs::path d = file.parent_path(); !d.empty() && !io::is_directory(d); d = d.parent_path()) missing.push_back(d);
  if (missing.empty()) return;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw io::IoError(file.parent_path().string() + ": cannot create directory (" + ec.message() + ")");
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) io::fsync_directory(it->parent_path());
}

void remove_durably(const fs::path &p) {
  if (::unlink(p.c_str()) != 0 && errno != ENOENT)
    throw io::IoError(p.string() + ": cannot remove (" + std::strerror(errno) + ")");
  io::fsync_directory(p.parent_path());
}

// A symbolic link (or special file) on the way to a file the commit writes
// could redirect the write out of the store.
void refuse_links(const fs::path &records, const fs::path &relpath) {
  fs::path p = records;
  auto check = [](const fs::path &q) {
    std::error_code ec;
    auto st = fs::symlink_status(q, ec);
    if (ec || !fs::exists(st)) return;
    if (fs::is_symlink(st))
      throw io::IoError(q.string() + ": the live store contains a symbolic link; refusing to write through it "
                                     "(replace it with a real directory or file)");
    if (!fs::is_directory(st) && !fs::is_regular_file(st))
      throw io::IoError(q.string() + ": not a regular file or directory; refusing to write it in the store");
  };
  check(p);
  for (const auto &part : relpath) check(p /= part);
}

// Store generations of the directory-swapping commit (otm before 0.2).
constexpr const char *kOldGenerationPrefix = ".otm-records-";

} // namespace

void StoreCommit::write(const fs::path &relpath, std::string content) {
  // Validated now, so a bad path is refused before anything is written.
  record::inside(workspace::records_dir(root_), relpath);
  refuse_links(workspace::records_dir(root_), relpath);
  writes_.emplace_back(relpath, std::move(content));
}

void StoreCommit::commit() {
  if (writes_.empty()) return;
  const fs::path records = workspace::records_dir(root_);
  // The index goes last: it is the commit point.
  std::stable_partition(writes_.begin(), writes_.end(),
                        [](const auto &w) { return w.first != workspace::kIndexFileName; });
  bool has_index = writes_.back().first == workspace::kIndexFileName;
  if (writes_.size() == 1) {
    auto target = record::inside(records, writes_[0].first);
    make_parents_durable(target);
    io::write_file_atomic(target, writes_[0].second, io::FileClass::Live);
    writes_.clear();
    return;
  }
  if (!has_index)
    throw io::IoError("internal: a commit of several record files must rewrite records/index.json (its commit point)");
  store::PendingCommit pending;
  pending.index_sha256 = text::sha256_hex(writes_.back().second);
  for (std::size_t i = 0; i + 1 < writes_.size(); ++i) {
    auto target = record::inside(records, writes_[i].first);
    std::optional<std::string> old;
    if (io::is_regular_file(target)) old = io::read_file(target);
    pending.files.push_back(
        {workspace::store_relpath(writes_[i].first), text::sha256_hex(writes_[i].second), std::move(old)});
  }
  io::write_file_atomic(store::pending_commit_file(root_), json::to_line(store::to_json(pending)) + "\n",
                        io::FileClass::Live);
  for (const auto &[rel, content] : writes_) {
    auto target = record::inside(records, rel);
    make_parents_durable(target);
    io::write_file_atomic(target, content, io::FileClass::Live);
  }
  remove_durably(store::pending_commit_file(root_));
  writes_.clear();
}

void recover_interrupted_commit(const fs::path &root) {
  if (auto pending = store::read_pending_commit(root)) {
    // pending_view names exactly the files to put back when the index was
    // not reached; nothing when it was.
    for (const auto &[relpath, old] : store::pending_view(root)) {
      auto target = record::inside(root, relpath);
      if (old)
        io::write_file_atomic(target, *old, io::FileClass::Live);
      else
        remove_durably(target);
    }
    remove_durably(store::pending_commit_file(root));
  }
  // The temporary file of a description whose writer died before renaming it.
  for (const auto &entry : io::list_dir(root))
    if (entry.filename().string().starts_with(".otm-commit.tmp.")) ::unlink(entry.c_str());
  for (const auto &entry : io::list_dir(root))
    if (entry.filename().string().starts_with(kOldGenerationPrefix)) {
      std::error_code ec;
      fs::remove_all(entry, ec);
      if (ec) throw io::IoError(entry.string() + ": cannot remove an old store generation (" + ec.message() + ")");
    }
}

} // namespace otm::admission
