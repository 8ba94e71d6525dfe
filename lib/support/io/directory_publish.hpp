// A directory of scratch files replaced as one set (a stage's outputs: the
// packets). The new set is written straight into a fresh sibling directory
// (one open, write and close per file: no temporary file and rename per
// file) and published by one rename that exchanges it with the current
// directory (renameat2 RENAME_EXCHANGE), after which the old set is removed.
//
//  - A reader sees the old set or the new set, never a mixture.
//  - A failure (or a kill) before commit() leaves the old set untouched; the
//    sibling is removed by the destructor, or, after a kill, by the next
//    DirectoryPublish of the same directory.
//  - A file whose bytes equal the current file's is hard-linked into the new
//    set (no new inode, its time stamps kept), and when the new set equals
//    the current one, commit() writes nothing at all.
//
// Nothing is flushed: for scratch files, flushed once at the end of the stage
// (sync_file_system; docs/durability.md). One DirectoryPublish of a
// directory at a time (make runs one stage per workspace). add() and keep()
// may be called from several threads at once (each file's bytes are written
// outside the lock); commit() after they all returned.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace otm::io {

class DirectoryPublish {
public:
  // `dir`: the directory to replace; it need not exist (then its parent is
  // created). A symbolic link is followed: its target is replaced.
  explicit DirectoryPublish(std::filesystem::path dir);
  ~DirectoryPublish();
  DirectoryPublish(const DirectoryPublish &) = delete;
  DirectoryPublish &operator=(const DirectoryPublish &) = delete;

  // The entries of the current directory (any type), sorted by name
  // (code-point order); empty when it does not exist.
  const std::vector<std::string> &current() const { return current_; }
  // `name` (a file name: no '/', not "." or "..") holds `content` in the new
  // set. Returns whether it differs from the current file of that name
  // (false: the current file is linked instead). Throws IoError.
  bool add(const std::string &name, std::string_view content);
  // The current entry `name` is carried into the new set unchanged (a file
  // is linked; a directory is moved in at commit()). Throws IoError when
  // there is no such entry.
  void keep(const std::string &name);
  // Whether `name` was added or kept.
  bool given(const std::string &name) const;
  // Whether the new set differs from the current one: a file written, a
  // current entry neither added nor kept, or no current directory.
  bool changed() const;
  // Publishes the new set (nothing when !changed()); returns whether it did.
  // Every entry of the current directory that was neither added nor kept is
  // gone from the new one. Throws IoError, leaving the old set.
  bool commit();

private:
  void stage();
  void place(const std::string &name);
  mutable std::mutex mu_; // guards everything below dir_ but current_ and types_ (fixed at construction)
  std::filesystem::path dir_, staging_;
  int current_fd_ = -1, staging_fd_ = -1;
  std::vector<std::string> current_;
  std::map<std::string, bool> types_; // current entry -> whether a regular file
  std::map<std::string, bool> taken_; // added or kept -> whether written (false: from the current set)
  std::vector<std::string> pending_;  // current files to link once the staging directory exists
  std::vector<std::string> moved_;    // current directories and other entries to move in at commit
  bool written_ = false, published_ = false;
};

} // namespace otm::io
