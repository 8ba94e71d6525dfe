// A commit's new objects held in memory and then written as one pack
// (private to lib/support/git/): an object database backend of otm's,
// first in the repository's, that takes every object libgit2 writes while
// it captures (the commit's blobs, trees and the commit itself), instead of
// a zlib loose file each. WorkTree::commit_files then writes them into one
// pack of the repository with otm's pack writer, the large ones (the live
// store's index) at a fast zlib level, and keeps each object's bytes and
// compressed pack entry, so that the push that follows copies the entries
// into the remote's packs instead of reading, inflating and compressing
// them again (docs/scale-out.md, "What a commit and a push cost").
#pragma once

#include <git2.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "git/pack_writer.hpp"

namespace otm::git::detail {

// One object written while capturing: its id, type, bytes, and once
// written into a pack, its whole pack entry (pack_entry).
struct PendingObject {
  git_oid id;
  PackType type = PackType::Blob;
  std::string content;
  std::string entry;
};

class PendingObjects {
public:
  // Adds the backend to `odb` (which owns it from then on, and must outlive
  // this handle's use) ahead of the repository's own backends. Throws
  // GitWriteError when libgit2 refuses it.
  static PendingObjects &attach(git_odb *odb);

  // While on, each object libgit2 writes to the repository and does not
  // hold already is kept here (and found here); off, writes go to the
  // repository's own backends as before.
  void capture(bool on);

  // Writes the captured objects into one pack in `pack_dir` (flushed when
  // `flush`), each at compression_level(size, `configured_level`); keeps
  // them, with their entries, until clear(). Returns the pack's name, or ""
  // when nothing was captured. Throws GitWriteError.
  std::string write_pack(const std::filesystem::path &pack_dir, bool flush, std::optional<int> configured_level);

  // The object as the last write_pack packed it; nullptr when it was not.
  const PendingObject *find(const git_oid &id) const;

  // Forgets every object (the commit they made is on disk, or abandoned).
  void clear();

  std::size_t count() const { return objects_.size(); }

private:
  PendingObjects() = default;
  struct Backend;
  friend struct Backend;
  struct OidLess {
    bool operator()(const git_oid &a, const git_oid &b) const { return std::memcmp(a.id, b.id, GIT_OID_RAWSZ) < 0; }
  };
  bool capturing_ = false;
  bool packed_ = false;
  std::vector<PendingObject> objects_;
  std::map<git_oid, std::size_t, OidLess> index_; // id → its place in objects_
  const PendingObject *lookup(const git_oid &id) const;
};

} // namespace otm::git::detail
