// A git pack (version 2) and its index (.idx version 2), written by otm:
// the pack format's entries (a header of type and size, a REF_DELTA's base
// id, the zlib-compressed data), its object count and SHA-1 trailer, and
// the index's fan-out, sorted ids, CRC-32s and offsets. libgit2 has no
// writer that takes a delta it did not compute, nor an entry copied from
// another pack; this one takes both (version_pack.hpp), and is read by
// libgit2 and git alike.
#pragma once

#include <git2.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace otm::git {

// The type codes of a pack entry's header.
enum class PackType : int { Commit = 1, Tree = 2, Blob = 3, Tag = 4, OfsDelta = 6, RefDelta = 7 };

// zlib's stream of `data` at `level` (0-9, or Z_DEFAULT_COMPRESSION, -1:
// zlib's default, git's core.compression when unset).
std::string zlib_deflate(std::string_view data, int level = -1);

// Objects of this many bytes or more (the live store's index, 24 MB at
// 10,000 records) are compressed at zlib's fastest level in the packs otm
// writes, unless the repository's pack.compression or core.compression says
// otherwise: a third of the CPU of the default level for about a third
// more bytes, which a push to a local remote stores once (the next one
// keeps it as a delta). Smaller objects keep the default.
inline constexpr std::size_t kFastCompressionBytes = 1024 * 1024;

// The zlib level for an object of `size` bytes: `configured` (git's
// pack.compression, else core.compression, when the repository sets one;
// -1 to 9) for every object, as git applies it; otherwise level 1 from
// kFastCompressionBytes up and zlib's default below.
int compression_level(std::size_t size, std::optional<int> configured);

// A whole object's pack entry (header, then its data compressed at
// `level`), as add_raw takes it: what a push can copy into another pack
// without compressing the object again.
std::string pack_entry(PackType type, std::string_view content, int level);

class PackWriter {
public:
  // A whole object of `type` (Commit, Tree, Blob or Tag) whose id is `id`,
  // compressed at `level` (compression_level).
  void add_object(const git_oid &id, PackType type, std::string_view content, int level = -1);
  // Object `id` as a delta (encode_delta's format) against `base`, which
  // must be an object of this same pack (git and libgit2 read a delta's
  // base from its own pack only).
  void add_ref_delta(const git_oid &id, const git_oid &base, std::string_view delta);
  // An entry copied from another pack byte for byte: header, base and
  // compressed data (a REF_DELTA's base must be in this pack too).
  void add_raw(const git_oid &id, std::string raw);

  // The entries of `other`, after these.
  void append(PackWriter &&other);

  std::size_t count() const { return entries_.size(); }

  // Writes `dir`/pack-<sha>.pack, then `dir`/pack-<sha>.idx, <sha> being
  // the pack's SHA-1 trailer: each under a temporary name (tmp_pack_*,
  // which git's prune removes when old) and renamed into place, the index
  // last, so a reader never finds an index without its pack. Flushed when
  // `flush` (file before the rename, directory after). `before_publish`,
  // when given, runs with the name ("pack-<sha>") once it is known and
  // before anything is visible. Returns the name. Throws GitWriteError,
  // leaving no temporary file behind.
  std::string write(const std::filesystem::path &dir, bool flush,
                    const std::function<void(const std::string &name)> &before_publish = {});

private:
  struct Entry {
    git_oid id;
    std::string raw;
  };
  std::vector<Entry> entries_;
};

} // namespace otm::git
