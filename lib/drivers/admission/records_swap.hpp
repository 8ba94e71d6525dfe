// The live store's only write path. A change to records/ (a new record, a
// rewritten target, the new index) is never applied in place: a next
// generation of records/ is built beside it as hard links to the current
// files, the changed files are written into it (temp file, fsync, rename),
// every directory is fsynced, and one renameat2(RENAME_EXCHANGE) swaps it
// with records/. At every instant records/ is either the whole old store or
// the whole new one, so a reader never sees an index that disagrees with
// the record files, even if the writer is killed at any point. Leftover
// generations (hidden siblings named .otm-records-*) are garbage that the
// next writer removes. See docs/admission.md.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace otm::admission {

class RecordsSwap {
public:
  // The caller must hold the store's exclusive StoreLock.
  explicit RecordsSwap(std::filesystem::path root) : root_(std::move(root)) {}

  // Queues `content` for `relpath`, relative to records/ (e.g.
  // "index.json", "strategy/nvidia/.../<id>.json"). The path is checked to
  // stay inside records/.
  void write(const std::filesystem::path &relpath, std::string content);

  // Builds the next generation and swaps it in. Does nothing when nothing
  // was queued. Throws io::IoError (nothing changed in records/) on failure.
  void commit();

private:
  std::filesystem::path root_;
  std::vector<std::pair<std::filesystem::path, std::string>> writes_;
};

// Removes generations left behind by a killed writer. Call under the
// exclusive lock before any change.
void remove_leftover_generations(const std::filesystem::path &root);

// The hidden name prefix of those generations in the store root.
inline constexpr const char *kGenerationPrefix = ".otm-records-";

} // namespace otm::admission
