// What repository.cpp, work_tree.cpp and local_push.cpp share of libgit2
// (private to lib/support/git/): its one initialisation, its last error as
// text, an object id as hex, and owning handles.
#pragma once

#include <git2.h>

#include <string>

namespace otm::git::detail {

// git_libgit2_init once per process, with the options both sides rely on:
// objects read without re-hashing each one (like git cat-file and log;
// verification belongs to fsck, and it cost a fifth of ingest's time), and
// the git directory's writes flushed (work_tree's set_flush_writes may turn
// that off).
void ensure_libgit2();

std::string last_error();

std::string hex(const git_oid *oid);

template <typename T, void (*Free)(T *)> struct Owned {
  T *p = nullptr;
  Owned() = default;
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  ~Owned() {
    if (p) Free(p);
  }
  T **out() { return &p; }
  T *get() const { return p; }
};

// The handles of the objects work_tree.cpp, local_push.cpp and
// repository.cpp hold, named once.
using RepoPtr = Owned<git_repository, git_repository_free>;
using CommitPtr = Owned<git_commit, git_commit_free>;
using TreePtr = Owned<git_tree, git_tree_free>;
using TreeEntryPtr = Owned<git_tree_entry, git_tree_entry_free>;
using BlobPtr = Owned<git_blob, git_blob_free>;
using IndexPtr = Owned<git_index, git_index_free>;
using RefPtr = Owned<git_reference, git_reference_free>;
using RemotePtr = Owned<git_remote, git_remote_free>;
using StatusPtr = Owned<git_status_list, git_status_list_free>;
using SigPtr = Owned<git_signature, git_signature_free>;
using ObjectPtr = Owned<git_object, git_object_free>;
using WalkPtr = Owned<git_revwalk, git_revwalk_free>;
using PackPtr = Owned<git_packbuilder, git_packbuilder_free>;
using OdbPtr = Owned<git_odb, git_odb_free>;
using OdbObjectPtr = Owned<git_odb_object, git_odb_object_free>;
using DiffPtr = Owned<git_diff, git_diff_free>;
using PatchPtr = Owned<git_patch, git_patch_free>;

} // namespace otm::git::detail
