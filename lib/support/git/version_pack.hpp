// The versions of the large objects a local push changes a little each
// time (the live store's records/index.json, and the big trees of
// records/), kept as delta chains (docs/scale-out.md, "The index's
// versions on a local remote"). A pack on disk must hold its deltas' bases,
// and libgit2's pack builder stores a new object whole, so each push of a
// new version would otherwise grow the remote by the whole object,
// compressed.
//
// Instead the remote holds one *version pack*: for each such object (a
// chain), its newest version whole and every older one as a REF_DELTA
// against a newer one (git's own preference: reading the current version
// is one inflate). A push writes a new version pack — each new version
// whole, its previous one as a delta against it, every other entry copied
// byte for byte — and only once that pack and its index are in place
// deletes the previous one, so a concurrent reader always finds every
// object. The remote then grows by one delta per changed object, not by the
// object.
//
// A version pack is recognised by its note, `<git dir>/otm-version-packs/
// pack-<sha>` (written before the pack becomes visible; outside
// objects/pack, where git would count it as garbage), and is only ever a
// pack otm wrote. When no previous version is whole in such a pack (a fresh
// remote, a `git gc` since, a version pushed by another program), the new
// versions start a version pack of their own and nothing is deleted: that
// push grows the remote as before, the next has a base.
#pragma once

#include <git2.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "git/pack_writer.hpp"

namespace otm::git {

// A delta is applied on top of its base, and its base on its own: at most
// this many deltas stand between a version and its chain's whole newest
// one (git's pack.depth default). An older version the next push would take
// past it is re-encoded against the newest (its delta composed with those
// of the versions between, compose_deltas), which keeps every read bounded.
inline constexpr int kVersionChainDepth = 50;

// The directory of a repository's version-pack notes.
std::filesystem::path version_pack_notes(const std::filesystem::path &git_dir);

// One new version: its id, type (Blob or Tree), bytes, and the id of the
// version it replaces in the remote (nullopt: none); its whole pack entry
// when one was made already (the commit's pack, pending_objects.hpp), else
// the zlib level to make one at.
struct Version {
  git_oid id;
  PackType type = PackType::Blob;
  std::string_view content;
  std::optional<git_oid> previous;
  std::string_view entry = {};
  int level = -1;
};

struct VersionPackResult {
  std::string written;      // "pack-<sha>", in objects/pack; empty when nothing was written
  std::string replaced;     // the version pack it replaced and deleted; empty when it started a new one
  std::size_t versions = 0; // objects in the new pack
  std::size_t chained = 0;  // previous versions stored as deltas against the new ones
  std::size_t rebased = 0;  // older versions re-encoded against their newest (the depth bound)
  std::size_t seeded = 0;   // seeds written whole
};

// Objects the remote holds already that should head a chain of the
// version pack, so that their next version is a delta (the big trees a
// push did not change): their ids and type, and how to read one.
struct Seeds {
  std::vector<git_oid> ids;
  PackType type = PackType::Tree;
  std::function<std::string(const git_oid &)> read;
  std::optional<int> compression = std::nullopt; // git's pack.compression (compression_level)
};

// Writes `versions` into the objects of the repository whose git directory
// is `git_dir` (a bare remote), as the newest of their chains, with the
// version pack that holds the first previous version found whole in one
// (the first of `versions` first), and each of `seeds` that pack does not
// hold, whole. Flushes what it writes when `flush`. Throws GitWriteError
// when the pack cannot be written; the previous version pack is then
// untouched.
VersionPackResult write_version_pack(const std::filesystem::path &git_dir, const std::vector<Version> &versions,
                                     bool flush, const Seeds &seeds = {}, int max_depth = kVersionChainDepth);

} // namespace otm::git
