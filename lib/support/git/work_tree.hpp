// Writing to a git work tree through libgit2 (the product never runs the git
// binary): the few operations a git-backed live store needs — commit a
// chosen set of files, move the branch to another commit and make the work
// tree match it, fetch and push one branch. Read-only history access is
// repository.hpp.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "error/error.hpp"

namespace otm::git {

// A write to a repository or a remote failed (a locked index, a full disk,
// an unreachable remote, missing credentials): the message says which and
// what to do. Not a verdict on the data, so it is an Io error (exit 2).
class GitWriteError : public Error {
public:
  explicit GitWriteError(const std::string &message) : Error(ErrorKind::Io, message) {}
};

struct Signature {
  std::string name;
  std::string email;
};

// Whether libgit2 flushes the objects, refs, packs and index it writes
// (GIT_OPT_ENABLE_FSYNC_GITDIR), process-wide; on by default here, since
// libgit2's own default (off) could leave a branch naming an object a power
// loss took away. Turning it off trades that for speed (tests do).
void set_flush_writes(bool on);

// "Name <email>" → {Name, email}; nullopt when it is not of that form.
std::optional<Signature> parse_signature(const std::string &text);

struct PushResult {
  bool pushed = false; // the remote branch now is the local commit
  std::string message; // why not (rejected: the remote moved), for a note
};

class WorkTree {
public:
  // The non-bare repository whose work tree holds `dir` (searching `dir`
  // and its parents, as git does), or nullopt when there is none. A
  // repository libgit2 refuses to open because another user owns it (git's
  // safe.directory) is none either; `refused`, if given, gets the reason.
  static std::optional<WorkTree> discover(const std::filesystem::path &dir, std::string *refused = nullptr);
  ~WorkTree();
  WorkTree(WorkTree &&) noexcept;
  WorkTree &operator=(WorkTree &&) noexcept;

  // The work tree's root (absolute, canonical).
  const std::filesystem::path &root() const;
  // `path` (inside the work tree) relative to root(), '/'-separated; "" for
  // the root itself.
  std::string relative(const std::filesystem::path &path) const;

  // HEAD's commit; nullopt on an unborn branch.
  std::optional<std::string> head() const;
  // The branch HEAD names ("main"), even when unborn. Throws GitWriteError
  // when HEAD is detached.
  std::string branch() const;
  // True when `relpath` (from root()) is in the repository's index.
  bool tracked(const std::string &relpath) const;
  // True when commit `ancestor` is `descendant` or one of its ancestors.
  bool is_ancestor(const std::string &ancestor, const std::string &descendant) const;

  // Work-tree paths under the `prefixes` (relative to root(), "" for all)
  // that differ from HEAD: modified, deleted, staged, and untracked files
  // that are not ignored. Sorted.
  std::vector<std::string> changed_paths(const std::vector<std::string> &prefixes) const;

  // One commit on the current branch whose tree is HEAD's with exactly the
  // `relpaths` (from root()) taken from the work tree: added or replaced
  // when the file exists, removed when it does not. Other staged or
  // unstaged changes are not included; the repository's index is updated
  // for these paths only. Author and committer are `who`, now. Returns the
  // new commit's id.
  std::string commit_files(const std::vector<std::string> &relpaths, const std::string &message, const Signature &who);

  // Points the current branch at `commit` and makes the index and the work
  // tree match it (git reset --hard), then deletes the untracked, not
  // ignored files under `clean_prefixes` (git clean for those paths).
  void reset_hard(const std::string &commit, const std::vector<std::string> &clean_prefixes);
  // Makes the files under `prefixes` match HEAD again, in the index and the
  // work tree, and deletes the untracked, not ignored files there; the
  // branch and every other path are left as they are.
  void restore(const std::vector<std::string> &prefixes);

  // Fetches `branch` of the remote named `remote` into
  // refs/remotes/<remote>/<branch>; returns the remote's commit, nullopt
  // when the remote has no such branch (a new, empty remote). From a remote
  // on this machine, every object of the commits fetched is then in the
  // clone, even those libgit2 did not fetch because the clone held their
  // commit (local_push.hpp, complete_from_local_remote).
  std::optional<std::string> fetch(const std::string &remote, const std::string &branch);

  // Pushes the current branch's commit to `branch` of `remote`, only as a
  // fast-forward of what the remote holds at that instant (a compare-and-
  // swap of the remote branch): when another writer moved it first, the
  // result is not pushed and nothing on the remote changed but unreferenced
  // objects. `before_update`, when given, runs after the objects are on the
  // remote and before its branch moves (a test pauses there). For a local
  // or file:// remote no credentials are needed; ssh uses the ssh agent.
  //
  // The push is leased: `expected` is the remote's commit as the caller last
  // saw it (nullopt: the remote had no such branch), and the branch moves
  // only if it still is that commit — also when it was rewound meanwhile,
  // where a fast-forward check alone would publish the dropped commits
  // again. For a local remote the compare-and-swap is the ref update
  // itself; for a network remote the push is stopped in its negotiation
  // when the remote's advertised commit is not `expected`, and the server
  // (receive-pack) updates the branch only if it still is the advertised
  // one.
  //
  // `versioned_path` (from root(), or empty) names a large file each push
  // changes a little (the live store's index): on a local remote its new
  // version is kept with its older ones in a version pack, as deltas of one
  // another (version_pack.hpp), instead of whole in the pushed pack.
  PushResult push(const std::string &remote, const std::string &branch, const std::optional<std::string> &expected,
                  const std::function<void()> &before_update = {}, const std::string &versioned_path = {});

  // The server-side hooks of `remote` when it is a repository on this
  // machine (a local path or file:// URL), by name ("pre-receive",
  // "update", ...): git's receive-pack would run them on a push, otm's
  // local push does not (docs/scale-out.md). Empty for a network remote.
  std::vector<std::string> local_remote_hooks(const std::string &remote) const;

  // The attributes that would make a checkout of `commit` (nullopt: HEAD)
  // write `relpaths` with other bytes than the repository holds (text, eol,
  // crlf, filter, ident, working-tree-encoding set by any .gitattributes or
  // info/attributes), as "path: attr=value" lines; empty when none.
  std::vector<std::string> rewriting_attributes(const std::vector<std::string> &relpaths,
                                                const std::optional<std::string> &commit = std::nullopt) const;

  // Adds the `patterns` missing from the repository's info/exclude (its
  // local ignore file, never committed), so `git status` and `git add -A`
  // pass over otm's journal and temporary files.
  void ensure_excluded(const std::vector<std::string> &patterns);

private:
  WorkTree() = default;
  void clean(const std::vector<std::string> &prefixes);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace otm::git
