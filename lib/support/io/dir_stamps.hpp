// The stamps of a directory's entries: what a stage that skips unchanged
// work compares to tell that its outputs are as it left them. An entry's
// inode, size, modification and status-change times (the status-change
// time moves on every write, rename, link or chmod, and cannot be set
// back by a user) stand for its bytes, as git's index does for a work tree.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace otm::io {

struct EntryStamp {
  std::string name;
  std::uint64_t inode = 0, size = 0;
  std::int64_t mtime_ns = 0, ctime_ns = 0;
  bool operator==(const EntryStamp &) const = default;
};

struct DirStamps {
  std::uint64_t inode = 0;         // of the directory itself
  std::vector<EntryStamp> entries; // sorted by name; "." and ".." left out
  bool operator==(const DirStamps &) const = default;
};

// nullopt when `dir` is not a readable directory.
std::optional<DirStamps> stamp_dir(const std::filesystem::path &dir);

} // namespace otm::io
