// A git pack read through its index (.idx version 2) by otm itself: each
// entry's id, offset, CRC-32, type, size and (a REF_DELTA's) base id, its
// raw bytes to copy into another pack, and its data inflated. What
// version_pack.hpp needs to carry a pack's deltas over without recomputing
// them; libgit2 reads objects, not entries.
#pragma once

#include <git2.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "error/error.hpp"
#include "git/pack_writer.hpp"

namespace otm::git {

// A pack or index that is not what git writes (truncated, another
// version, offsets out of range): unreadable input.
class PackFormatError : public Error {
public:
  explicit PackFormatError(const std::string &message) : Error(ErrorKind::UnreadableInput, message) {}
};

struct PackEntry {
  git_oid id;
  std::uint64_t offset = 0; // of its header in the pack
  std::uint64_t end = 0;    // where the next entry (or the trailer) begins
  std::uint32_t crc = 0;    // CRC-32 of the bytes [offset, end), as the index holds it
  PackType type = PackType::Blob;
  std::uint64_t size = 0;      // of the object, or of the delta's data
  std::uint64_t data_at = 0;   // where the compressed data begins
  std::optional<git_oid> base; // a REF_DELTA's base
  std::uint64_t ofs_base = 0;  // an OFS_DELTA's base offset
};

class PackReader {
public:
  // Opens `dir`/`name`.pack and its .idx (`name` as "pack-<sha>"); throws
  // PackFormatError when either is missing or malformed. The pack stays
  // open, so a reader keeps reading it if another process deletes it.
  PackReader(const std::filesystem::path &dir, const std::string &name);
  ~PackReader();
  PackReader(const PackReader &) = delete;
  PackReader &operator=(const PackReader &) = delete;

  const std::string &name() const { return name_; }
  // In the order they lie in the pack.
  const std::vector<PackEntry> &entries() const { return entries_; }
  const PackEntry *find(const git_oid &id) const;

  // The entry's bytes as they are, header to the end of its data.
  std::string raw(const PackEntry &e) const;
  // Its data inflated: the object (Commit, Tree, Blob, Tag) or the delta.
  std::string inflate(const PackEntry &e) const;

private:
  std::string read_at(std::uint64_t offset, std::uint64_t size) const;
  std::string name_;
  std::string path_;
  int fd_ = -1;
  std::vector<PackEntry> entries_;
};

} // namespace otm::git
