// The versions of one large file a local push keeps as a delta chain (the
// live store's records/index.json; docs/scale-out.md, "The index's versions
// on a local remote"). A pack on disk must hold its deltas' bases, and
// libgit2's pack builder stores a new object whole, so each push of a new
// version would otherwise grow the remote by the whole file, compressed.
//
// Instead the remote holds one *version pack* of the file: its newest
// version whole and every older one as a REF_DELTA against a newer one
// (git's own preference: reading the current version is one inflate). A
// push writes a new version pack — the new version whole, the previous
// newest as a delta against it, every older entry copied byte for byte —
// and only once that pack and its index are in place deletes the previous
// one, so a concurrent reader always finds every object. The remote then
// grows by one delta per push, not by the file.
//
// A version pack is recognised by its note, `<git dir>/otm-version-packs/
// pack-<sha>` (written before the pack becomes visible; outside
// objects/pack, where git would count it as garbage), and is only ever a
// pack otm wrote. When the previous version is not the whole object of such
// a pack (a fresh remote, a `git gc` since, a version pushed by another
// program), the new version starts a version pack of its own and nothing is
// deleted: that push grows the remote as before, the next has a base.
#pragma once

#include <git2.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace otm::git {

// A delta is applied on top of its base, and its base on its own: at most
// this many deltas stand between a version and the whole newest one (git's
// pack.depth default). An older version the next push would take past it is
// re-encoded against the newest (its delta composed with those of the
// versions between, compose_deltas), which keeps every read bounded.
inline constexpr int kVersionChainDepth = 50;

// The directory of a repository's version-pack notes.
std::filesystem::path version_pack_notes(const std::filesystem::path &git_dir);

struct VersionPackResult {
  std::string written;      // "pack-<sha>", in objects/pack
  std::string replaced;     // the version pack it replaced and deleted; empty when it started a new one
  std::size_t versions = 0; // objects in the new pack
  std::size_t rebased = 0;  // older versions re-encoded against the newest (the depth bound)
};

// Writes version `id` (whose bytes are `content`) of the file into the
// objects of the repository whose git directory is `git_dir` (a bare
// remote), given the id of its previous version there (nullopt: none).
// Flushes what it writes when `flush`. Throws GitWriteError when the pack
// cannot be written; the previous version pack is then untouched.
VersionPackResult write_version_pack(const std::filesystem::path &git_dir, const git_oid &id, std::string_view content,
                                     const std::optional<git_oid> &previous, bool flush,
                                     int max_depth = kVersionChainDepth);

} // namespace otm::git
