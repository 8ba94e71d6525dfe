// The push to a remote on this machine (a local path or a file:// URL),
// which otm makes itself rather than through libgit2's local transport:
// that one moves the remote branch with a forced update after checking
// fast-forward against what it listed earlier, so two concurrent pushers
// can both pass the check and the second overwrite the first
// (docs/scale-out.md). This push does the same steps with a compare-and-
// swap of the branch under git's own ref lock file: the objects the remote
// lacks go into its objects/pack (the versioned file and the big trees into
// its version pack, version_pack.hpp), then the branch moves only if it
// still is the leased commit. Private to lib/support/git/: WorkTree::push
// calls it for a remote that names a repository on this machine.
#pragma once

#include <git2.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "git/libgit2.hpp"
#include "git/pending_objects.hpp"
#include "git/work_tree.hpp"

namespace otm::git::detail {

// What WorkTree::push was asked, with the remote found on this machine.
struct LocalPush {
  git_oid commit;               // the pushed commit (the branch's HEAD)
  std::filesystem::path remote; // the remote repository, which must be bare
  std::string url;              // the remote's URL, named in an error
  std::string remote_name, branch;
  std::optional<std::string> expected; // the lease (WorkTree::push)
  std::function<void()> before_update;
  std::string versioned_path;
  bool flush = true; // whether the packs written are flushed (set_flush_writes)
  // The objects of the last commit made here and their pack entries, copied
  // as they are (nullptr: every object is read and compressed).
  const PendingObjects *pending = nullptr;
  std::optional<int> compression; // git's pack.compression (compression_level)
};

// Pushes `push.commit` of `from` (whose repository is `repo`) as
// WorkTree::push says; when pushed, `from`'s refs/remotes/<remote>/<branch>
// moves too. A remote that is no bare repository, or a write that fails,
// throws GitWriteError.
PushResult push_to_local_remote(const WorkTree &from, git_repository *repo, const LocalPush &push);

// Copies into `repo` (a clone, whose commondir is `git_dir`) the objects of
// `head`'s history, back to `have` (the clone's HEAD, held whole by it),
// that it lacks, reading them from the local remote at `remote`; one pack,
// flushed when `flush`, each object at compression_level(size,
// `compression`). libgit2's fetch asks nothing of a remote head whose
// commit object the clone holds, and a `git clone` of a local path can
// hold one without its objects (local_push.cpp). Returns how many were
// copied. Throws GitWriteError when the remote cannot be read or the pack
// written.
std::size_t complete_from_local_remote(git_repository *repo, const std::filesystem::path &git_dir,
                                       const std::filesystem::path &remote, const git_oid &head,
                                       const std::optional<git_oid> &have, bool flush, std::optional<int> compression);

} // namespace otm::git::detail
