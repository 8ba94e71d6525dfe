// What repository.cpp and work_tree.cpp share of libgit2 (private to
// lib/support/git/): its one initialisation, its last error as text, an
// object id as hex, and an owning handle.
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

} // namespace otm::git::detail
