#include "admission/records_swap.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/file.hpp"
#include "record/store_layout.hpp"

namespace otm::admission {

namespace fs = std::filesystem;

namespace {

// Mirrors `src` into the new directory `dst`: sub-directories recreated,
// regular files hard-linked (the next generation shares every unchanged
// file). A symbolic link or special file inside records/ could redirect a
// write out of the store, so it stops the commit.
void mirror(const fs::path &src, const fs::path &dst) {
  std::error_code ec;
  fs::create_directory(dst, ec);
  if (ec) throw io::IoError(dst.string() + ": cannot create directory (" + ec.message() + ")");
  for (const auto &entry : io::list_dir(src)) {
    auto st = fs::symlink_status(entry, ec);
    if (ec) throw io::IoError(entry.string() + ": cannot stat (" + ec.message() + ")");
    fs::path target = dst / entry.filename();
    if (fs::is_symlink(st))
      throw io::IoError(entry.string() + ": the live store contains a symbolic link; refusing to write through it "
                                         "(replace it with a real directory or file)");
    if (fs::is_directory(st)) {
      mirror(entry, target);
    } else if (fs::is_regular_file(st)) {
      if (::link(entry.c_str(), target.c_str()) != 0)
        throw io::IoError(target.string() + ": cannot link (" + std::strerror(errno) + ")");
    } else {
      throw io::IoError(entry.string() + ": not a regular file or directory; refusing to copy it into the store");
    }
  }
}

// Makes every directory entry of the new generation durable before the swap
// publishes it. One syncfs(2) commits the file system's journal once; an
// fsync per directory would commit it once per directory (seconds for a
// store of hundreds of directories).
void sync_tree(const fs::path &dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw io::IoError(dir.string() + ": cannot open (" + std::strerror(errno) + ")");
  int rc = ::syncfs(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) throw io::IoError(dir.string() + ": cannot flush the new store generation (" + std::strerror(err) + ")");
}

void remove_tree(const fs::path &p) {
  std::error_code ec;
  fs::remove_all(p, ec);
  if (ec) throw io::IoError(p.string() + ": cannot remove an old store generation (" + ec.message() + ")");
}

} // namespace

void RecordsSwap::write(const fs::path &relpath, std::string content) {
  // Validated now, so a bad path is refused before anything is built.
  record::inside(root_ / "records", relpath);
  writes_.emplace_back(relpath, std::move(content));
}

void RecordsSwap::commit() {
  if (writes_.empty()) return;
  fs::path records = root_ / "records";
  fs::path next = root_ / (std::string(kGenerationPrefix) + "next-" + std::to_string(::getpid()));
  remove_tree(next);
  bool had_records = io::is_directory(records);
  try {
    if (had_records) {
      mirror(records, next);
    } else {
      std::error_code ec;
      fs::create_directory(next, ec);
      if (ec) throw io::IoError(next.string() + ": cannot create directory (" + ec.message() + ")");
    }
    for (const auto &[rel, content] : writes_) io::write_file_atomic(record::inside(next, rel), content);
    sync_tree(next);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(next, ec); // the live generation was never touched
    throw;
  }
  unsigned flags = had_records ? RENAME_EXCHANGE : RENAME_NOREPLACE;
  if (::renameat2(AT_FDCWD, next.c_str(), AT_FDCWD, records.c_str(), flags) != 0) {
    int err = errno;
    remove_tree(next);
    throw io::IoError(records.string() + ": cannot swap in the new store generation (" + std::strerror(err) +
                      (err == EINVAL ? "; the file system must support renameat2 RENAME_EXCHANGE" : "") +
                      "); the store is unchanged");
  }
  io::fsync_directory(root_);
  writes_.clear();
  // `next` now names the previous generation.
  if (had_records) remove_tree(next);
}

void remove_leftover_generations(const fs::path &root) {
  for (const auto &entry : io::list_dir(root))
    if (entry.filename().string().starts_with(kGenerationPrefix)) remove_tree(entry);
}

} // namespace otm::admission
