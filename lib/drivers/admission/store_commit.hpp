// The live store's only write path (docs/admission.md, "All or nothing").
// A commit replaces a few files of records/ — the record it admits or
// re-ranks, and records/index.json — with work proportional to those files,
// whatever the store's size:
//   1. <root>/.otm-commit describes it (store/pending_commit.hpp): each
//      record file with its old bytes and new hash, and the new index's
//      hash; written atomically and flushed;
//   2. each record file is replaced (temp file, fsync, rename, fsync of the
//      directory), new directories flushed into their parents;
//   3. records/index.json is replaced the same way: the commit point;
//   4. .otm-commit is removed.
// Until step 3 every store reader sees the store as it was; after it, the
// whole new state. A writer killed at any point leaves .otm-commit, which
// the next writer resolves under the lock before anything else
// (recover_interrupted_commit): done if the index is the new one, else
// rolled back. A commit of one file and no index is a single atomic
// replacement and needs no record.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace otm::admission {

class StoreCommit {
public:
  // The caller must hold the store's exclusive StoreLock.
  explicit StoreCommit(std::filesystem::path root) : root_(std::move(root)) {}

  // Queues `content` for `relpath`, relative to records/ (e.g.
  // "index.json", "strategy/nvidia/.../<id>.json"). The path is checked to
  // stay inside records/ and to pass through no symbolic link.
  void write(const std::filesystem::path &relpath, std::string content);

  // Applies the queued writes (index.json last). Does nothing when nothing
  // was queued. Throws io::IoError on failure; the store then reads as it
  // was, and the next writer rolls the attempt back.
  void commit();

private:
  std::filesystem::path root_;
  std::vector<std::pair<std::filesystem::path, std::string>> writes_;
};

// Resolves a commit a killed writer left (see above), and removes the
// records/ generations of otm versions that committed by swapping
// directories. Call under the exclusive lock before any change.
void recover_interrupted_commit(const std::filesystem::path &root);

} // namespace otm::admission
