// WorkTree's state, shared by its two halves: the local tree (discover,
// status, commit, reset, restore, clean, attributes; work_tree.cpp) and
// the exchange with a remote (fetch with its completion, push with its
// lease and credentials, a local remote's hooks; work_tree_remote.cpp).
// Private to lib/support/git: no other directory includes it.
#pragma once

#include <git2.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "git/libgit2.hpp"
#include "git/pending_objects.hpp"
#include "git/work_tree.hpp"

namespace otm::git {

namespace detail {

// `sha` as an object id; a GitWriteError when it is none (a bug).
git_oid oid_of(const std::string &sha);
// What set_flush_writes last said, for the packs otm writes itself.
bool flush_writes();
// Whether `path` is `prefix` or below it ("" is every path).
bool under(const std::string &path, const std::string &prefix);
// git's pack.compression, else core.compression, when the repository (or
// the user's or system's git config) sets one: the zlib level of every
// object in the packs otm writes, as git applies it (pack_writer.hpp).
std::optional<int> configured_compression(git_repository *repo);

} // namespace detail

struct WorkTree::Impl {
  detail::RepoPtr repo;
  std::filesystem::path root;
  detail::PendingObjects *pending = nullptr; // owned by the repository's object database

  detail::PendingObjects &pending_objects() {
    if (!pending) {
      detail::OdbPtr odb;
      if (git_repository_odb(odb.out(), repo.get()) != 0) fail("cannot open the object database");
      pending = &detail::PendingObjects::attach(odb.get());
    }
    return *pending;
  }

  std::optional<int> compression() const { return detail::configured_compression(repo.get()); }

  [[noreturn]] void fail(const std::string &what) const {
    throw GitWriteError(root.string() + ": " + what + " (" + detail::last_error() + ")");
  }

  void lookup_commit(const std::string &sha, detail::CommitPtr &out) const {
    git_oid oid = detail::oid_of(sha);
    if (git_commit_lookup(out.out(), repo.get(), &oid) != 0) fail("no commit " + sha);
  }

  std::vector<std::string> status(const std::vector<std::string> &prefixes, bool untracked_only) const {
    git_status_options opts;
    git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
    opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
    opts.flags =
        GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS | GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
    std::vector<char *> specs;
    bool all = std::find(prefixes.begin(), prefixes.end(), std::string()) != prefixes.end();
    if (!all)
      for (const auto &p : prefixes) specs.push_back(const_cast<char *>(p.c_str()));
    opts.pathspec.strings = specs.data();
    opts.pathspec.count = specs.size();
    detail::StatusPtr list;
    if (git_status_list_new(list.out(), repo.get(), &opts) != 0) fail("cannot read the work tree's status");
    std::vector<std::string> out;
    for (std::size_t i = 0, n = git_status_list_entrycount(list.get()); i < n; ++i) {
      const git_status_entry *e = git_status_byindex(list.get(), i);
      if (untracked_only && !(e->status & GIT_STATUS_WT_NEW)) continue;
      for (const git_diff_delta *d : {e->head_to_index, e->index_to_workdir})
        if (d)
          for (const char *p : {d->old_file.path, d->new_file.path})
            if (p) out.emplace_back(p);
    }
    // The pathspec already limits the walk; this keeps a pattern character
    // in a prefix from widening it.
    std::erase_if(out, [&](const std::string &p) {
      return !all && std::none_of(prefixes.begin(), prefixes.end(), [&](const auto &x) { return detail::under(p, x); });
    });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
};

} // namespace otm::git
