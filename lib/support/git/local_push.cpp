#include "git/local_push.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <set>

#include "git/version_pack.hpp"

namespace otm::git::detail {

namespace fs = std::filesystem;

namespace {

// A tree of at least this many bytes that replaces one of the remote's is
// pushed into the version pack, as a delta of its previous version: a
// directory of some fifty records or more, which a batch changes by a line
// or two (at 100,000 records about 500 such trees, 4.7 MB).
constexpr std::size_t kVersionedTreeBytes = 4 * 1024;

// The blob at `path` in `commit`'s tree; nullopt when there is none.
std::optional<git_oid> blob_at(git_repository *repo, const git_oid &commit, const std::string &path) {
  CommitPtr c;
  TreePtr tree;
  TreeEntryPtr entry;
  if (git_commit_lookup(c.out(), repo, &commit) != 0 || git_commit_tree(tree.out(), c.get()) != 0 ||
      git_tree_entry_bypath(entry.out(), tree.get(), path.c_str()) != 0) {
    git_error_clear();
    return std::nullopt;
  }
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB) return std::nullopt;
  return *git_tree_entry_id(entry.get());
}

// The trees of `commit` of at least kVersionedTreeBytes, into `out`.
bool big_trees(git_repository *repo, git_odb *odb, const git_oid &commit, std::vector<git_oid> &out) {
  CommitPtr c;
  TreePtr root;
  if (git_commit_lookup(c.out(), repo, &commit) != 0 || git_commit_tree(root.out(), c.get()) != 0) return false;
  std::function<bool(const git_tree *)> walk = [&](const git_tree *tree) {
    for (std::size_t i = 0, n = git_tree_entrycount(tree); i < n; ++i) {
      const git_tree_entry *e = git_tree_entry_byindex(tree, i);
      if (git_tree_entry_type(e) != GIT_OBJECT_TREE) continue;
      TreePtr sub;
      if (git_tree_lookup(sub.out(), repo, git_tree_entry_id(e)) != 0) return false;
      std::size_t size = 0;
      git_object_t type;
      if (git_odb_read_header(&size, &type, odb, git_tree_entry_id(e)) != 0) return false;
      if (size >= kVersionedTreeBytes) out.push_back(*git_tree_entry_id(e));
      if (!walk(sub.get())) return false;
    }
    return true;
  };
  return walk(root.get());
}

// What a push sends: the objects the remote lacks, in the order found, and
// of the tip commit's changed trees each new tree with the one it replaces
// at the same path (candidates for the version pack).
struct Outgoing {
  std::vector<git_oid> objects;
  std::vector<std::pair<git_oid, git_oid>> replaced_trees; // new, previous
};

// Adds tree `tree` and what it holds that `dst` lacks, except `skip`, to
// `out`: an entry that is the same object as in `parent` (the first
// parent's tree at the same path) is in `dst` already, or pushed with that
// parent; any other is looked up in `dst`. Only the changed paths are
// walked, where libgit2's insert_walk walks the remote's whole tree. With
// `pairs`, each new subtree that replaces one of `parent`'s is noted.
int add_tree(git_repository *repo, git_odb *dst, Outgoing &out, const git_tree *tree, const git_tree *parent,
             const std::optional<git_oid> &skip, bool pairs) {
  out.objects.push_back(*git_tree_id(tree));
  for (std::size_t i = 0, n = git_tree_entrycount(tree); i < n; ++i) {
    const git_tree_entry *e = git_tree_entry_byindex(tree, i);
    const git_oid *id = git_tree_entry_id(e);
    const git_tree_entry *before = parent ? git_tree_entry_byname(parent, git_tree_entry_name(e)) : nullptr;
    if (before && git_oid_equal(git_tree_entry_id(before), id)) continue;
    git_object_t type = git_tree_entry_type(e);
    if (type == GIT_OBJECT_COMMIT) continue; // a submodule's commit is not this repository's
    if ((skip && git_oid_equal(&*skip, id)) || git_odb_exists_ext(dst, id, GIT_ODB_LOOKUP_NO_REFRESH)) continue;
    if (type != GIT_OBJECT_TREE) {
      out.objects.push_back(*id);
      continue;
    }
    TreePtr sub, sub_before;
    if (git_tree_lookup(sub.out(), repo, id) != 0) return -1;
    if (before && git_tree_entry_type(before) == GIT_OBJECT_TREE) {
      if (git_tree_lookup(sub_before.out(), repo, git_tree_entry_id(before)) != 0) return -1;
      if (pairs) out.replaced_trees.emplace_back(*id, *git_tree_entry_id(before));
    }
    if (add_tree(repo, dst, out, sub.get(), sub_before.get(), skip, pairs) != 0) return -1;
  }
  return 0;
}

// The commits from `local` back to (not including) `old`, with the trees
// and blobs of each that `dst` lacks, except `skip`; the replaced trees of
// `local` when its parent is `old`.
int add_new_objects(git_repository *repo, git_odb *dst, Outgoing &out, const git_oid &local,
                    const std::optional<git_oid> &old, const std::optional<git_oid> &skip) {
  WalkPtr walk;
  if (git_revwalk_new(walk.out(), repo) != 0 || git_revwalk_push(walk.get(), &local) != 0 ||
      (old && git_revwalk_hide(walk.get(), &*old) != 0))
    return -1;
  git_oid id;
  int rc;
  while ((rc = git_revwalk_next(&id, walk.get())) == 0) {
    CommitPtr commit, parent;
    TreePtr tree, parent_tree;
    out.objects.push_back(id);
    if (git_commit_lookup(commit.out(), repo, &id) != 0 || git_commit_tree(tree.out(), commit.get()) != 0) return -1;
    bool pairs = false;
    if (git_commit_parentcount(commit.get()) > 0) {
      if (git_commit_parent(parent.out(), commit.get(), 0) != 0 ||
          git_commit_tree(parent_tree.out(), parent.get()) != 0)
        return -1;
      pairs = git_oid_equal(&id, &local) && old && git_oid_equal(git_commit_id(parent.get()), &*old);
    }
    if (git_odb_exists_ext(dst, git_tree_id(tree.get()), GIT_ODB_LOOKUP_NO_REFRESH)) continue;
    if (add_tree(repo, dst, out, tree.get(), parent_tree.get(), skip, pairs) != 0) return -1;
  }
  return rc == GIT_ITEROVER ? 0 : rc;
}

struct OidLess {
  bool operator()(const git_oid &a, const git_oid &b) const { return git_oid_cmp(&a, &b) < 0; }
};

// Adds to `missing` tree `tree` and what it holds that `odb` lacks, reading
// from `src`: an entry that is the same object as in `parent` (the first
// parent's tree at the same path) is the parent's, checked with it; a tree
// is walked whether `odb` holds it or not, since a pack copied on its own
// can bring a tree without its entries. `seen` keeps each object once.
int add_missing(git_repository *src, git_odb *odb, std::vector<git_oid> &missing, std::set<git_oid, OidLess> &seen,
                const git_tree *tree, const git_tree *parent) {
  if (!git_odb_exists_ext(odb, git_tree_id(tree), GIT_ODB_LOOKUP_NO_REFRESH)) missing.push_back(*git_tree_id(tree));
  for (std::size_t i = 0, n = git_tree_entrycount(tree); i < n; ++i) {
    const git_tree_entry *e = git_tree_entry_byindex(tree, i);
    const git_oid *id = git_tree_entry_id(e);
    const git_tree_entry *before = parent ? git_tree_entry_byname(parent, git_tree_entry_name(e)) : nullptr;
    if (before && git_oid_equal(git_tree_entry_id(before), id)) continue;
    git_object_t type = git_tree_entry_type(e);
    if (type == GIT_OBJECT_COMMIT || !seen.insert(*id).second) continue; // a submodule's, or walked already
    if (type != GIT_OBJECT_TREE) {
      if (!git_odb_exists_ext(odb, id, GIT_ODB_LOOKUP_NO_REFRESH)) missing.push_back(*id);
      continue;
    }
    TreePtr sub, sub_before;
    if (git_tree_lookup(sub.out(), src, id) != 0) return -1;
    if (before && git_tree_entry_type(before) == GIT_OBJECT_TREE &&
        git_tree_lookup(sub_before.out(), src, git_tree_entry_id(before)) != 0)
      return -1;
    if (add_missing(src, odb, missing, seen, sub.get(), sub_before.get()) != 0) return -1;
  }
  return 0;
}

} // namespace

std::size_t complete_from_local_remote(git_repository *repo, const fs::path &git_dir, const fs::path &remote,
                                       const git_oid &head, const std::optional<git_oid> &have, bool flush,
                                       std::optional<int> compression) {
  auto fail = [&](const std::string &what) {
    throw GitWriteError(remote.string() + ": " + what + " (" + last_error() + ")");
  };
  RepoPtr src;
  OdbPtr src_odb, odb;
  if (git_repository_open_ext(src.out(), remote.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0 ||
      git_repository_odb(src_odb.out(), src.get()) != 0)
    fail("cannot read the remote's objects");
  if (git_repository_odb(odb.out(), repo) != 0 || git_odb_refresh(odb.get()) != 0)
    fail("cannot read the clone's objects");
  WalkPtr walk;
  if (git_revwalk_new(walk.out(), src.get()) != 0 || git_revwalk_push(walk.get(), &head) != 0)
    fail("cannot walk the history of " + hex(&head));
  // What the clone holds whole: its HEAD, or when the remote lacks that (a
  // commit whose push was refused) its parents.
  auto hide = [&](const git_oid &id) {
    bool ok = git_revwalk_hide(walk.get(), &id) == 0;
    git_error_clear();
    return ok;
  };
  if (have && !hide(*have)) {
    CommitPtr c;
    if (git_commit_lookup(c.out(), repo, &*have) == 0)
      for (unsigned i = 0, n = git_commit_parentcount(c.get()); i < n; ++i) hide(*git_commit_parent_id(c.get(), i));
    git_error_clear();
  }
  std::vector<git_oid> missing;
  std::set<git_oid, OidLess> seen;
  git_oid id;
  int rc;
  while ((rc = git_revwalk_next(&id, walk.get())) == 0) {
    if (!git_odb_exists_ext(odb.get(), &id, GIT_ODB_LOOKUP_NO_REFRESH)) missing.push_back(id);
    CommitPtr commit, parent;
    TreePtr tree, parent_tree;
    if (git_commit_lookup(commit.out(), src.get(), &id) != 0 || git_commit_tree(tree.out(), commit.get()) != 0)
      fail("cannot read commit " + hex(&id));
    if (git_commit_parentcount(commit.get()) > 0 && (git_commit_parent(parent.out(), commit.get(), 0) != 0 ||
                                                     git_commit_tree(parent_tree.out(), parent.get()) != 0))
      fail("cannot read the parent of " + hex(&id));
    if (!seen.insert(*git_tree_id(tree.get())).second) continue;
    if (add_missing(src.get(), odb.get(), missing, seen, tree.get(), parent_tree.get()) != 0)
      fail("cannot read the trees of " + hex(&id));
  }
  if (rc != GIT_ITEROVER) fail("cannot walk the history of " + hex(&head));
  if (missing.empty()) return 0;
  PackWriter pack;
  for (const auto &m : missing) {
    OdbObjectPtr obj;
    if (git_odb_read(obj.out(), src_odb.get(), &m) != 0) fail("cannot read object " + hex(&m));
    std::string_view data(static_cast<const char *>(git_odb_object_data(obj.get())), git_odb_object_size(obj.get()));
    pack.add_object(m, static_cast<PackType>(git_odb_object_type(obj.get())), data,
                    compression_level(data.size(), compression));
  }
  pack.write(git_dir / "objects" / "pack", flush);
  if (git_odb_refresh(odb.get()) != 0) fail("cannot read the objects copied");
  return missing.size();
}

PushResult push_to_local_remote(const WorkTree &from, git_repository *repo, const LocalPush &push) {
  const std::string &url = push.url, &remote_name = push.remote_name, &branch = push.branch;
  const std::string &versioned_path = push.versioned_path;
  const std::optional<std::string> &expected = push.expected;
  const git_oid &local_id = push.commit;
  const std::string ref = "refs/heads/" + branch;
  const std::string tracking = "refs/remotes/" + remote_name + "/" + branch;
  auto fail = [&](const std::string &what) {
    throw GitWriteError(from.root().string() + ": " + what + " (" + last_error() + ")");
  };
  RepoPtr dst;
  if (git_repository_open_ext(dst.out(), push.remote.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0)
    throw GitWriteError(std::string(url) + ": the remote '" + remote_name + "' is not a git repository (" +
                        last_error() + ")");
  if (!git_repository_is_bare(dst.get()))
    throw GitWriteError(std::string(url) + ": the remote '" + remote_name +
                        "' is not a bare repository; make the shared store's remote bare (git init --bare) so "
                        "pushes never touch someone's work tree");
  std::optional<git_oid> old;
  git_oid old_id;
  if (git_reference_name_to_id(&old_id, dst.get(), ref.c_str()) == 0)
    old = old_id;
  else
    git_error_clear();
  // The lease: the branch must still be what the caller saw.
  std::optional<std::string> now = old ? std::optional<std::string>(hex(&*old)) : std::nullopt;
  if (now != expected)
    return {false, "the remote's " + branch + " is at " + (now ? now->substr(0, 12) : std::string("nothing")) +
                       ", not " + (expected ? expected->substr(0, 12) : std::string("absent")) +
                       " as the sync saw it (another writer pushed first, or it was rewound)"};
  if (old && git_oid_equal(&*old, &local_id)) return {true, ""};
  if (old && !from.is_ancestor(hex(&*old), hex(&local_id)))
    return {false, "the remote's " + branch + " is at " + hex(&*old).substr(0, 12) +
                       ", which this commit does not build on (another writer pushed first)"};
  OdbPtr dst_odb;
  if (git_repository_odb(dst_odb.out(), dst.get()) != 0)
    throw GitWriteError(std::string(url) + ": cannot read the remote's objects (" + last_error() + ")");
  // The versioned file's new version, when the remote lacks it, goes into
  // the version pack instead of the pushed pack.
  std::optional<git_oid> version, previous;
  if (!versioned_path.empty()) {
    version = blob_at(repo, local_id, versioned_path);
    if (version && git_odb_exists(dst_odb.get(), &*version)) version.reset();
    if (version && old) previous = blob_at(repo, *old, versioned_path);
  }
  Outgoing out;
  if (add_new_objects(repo, dst_odb.get(), out, local_id, old, version) != 0)
    fail("cannot collect the objects to push");
  // The versioned file and the big trees that replace one of the remote's
  // go into the version pack as deltas of their previous versions; the
  // rest into a pack of their own. Objects of the commit just made are
  // copied as its pack holds them (pending_objects.hpp): nothing is
  // compressed twice.
  OdbPtr odb;
  if (git_repository_odb(odb.out(), repo) != 0) fail("cannot read the objects to push");
  std::deque<OdbObjectPtr> held; // the bytes `versions` views
  std::vector<Version> versions;
  auto read = [&](const git_oid &id) {
    if (const PendingObject *o = push.pending ? push.pending->find(id) : nullptr) return std::string_view(o->content);
    held.emplace_back();
    if (git_odb_read(held.back().out(), odb.get(), &id) != 0) fail("cannot read object " + hex(&id) + " to push");
    return std::string_view(static_cast<const char *>(git_odb_object_data(held.back().get())),
                            git_odb_object_size(held.back().get()));
  };
  auto version_of = [&](const git_oid &id, PackType type, const std::optional<git_oid> &before) {
    std::string_view content = read(id);
    const PendingObject *o = push.pending ? push.pending->find(id) : nullptr;
    return Version{id,
                   type,
                   content,
                   before,
                   o ? std::string_view(o->entry) : std::string_view(),
                   compression_level(content.size(), push.compression)};
  };
  if (version) versions.push_back(version_of(*version, PackType::Blob, previous));
  for (const auto &[tree, before] : out.replaced_trees) {
    std::size_t size = 0;
    git_object_t type;
    if (git_odb_read_header(&size, &type, odb.get(), &tree) == 0 && size >= kVersionedTreeBytes)
      versions.push_back(version_of(tree, PackType::Tree, before));
    git_error_clear();
  }
  std::set<git_oid, OidLess> placed;
  for (const auto &v : versions) placed.insert(v.id);
  PackWriter pushed;
  for (const auto &id : out.objects) {
    if (!placed.insert(id).second) continue; // in the version pack, or met twice
    if (const PendingObject *o = push.pending ? push.pending->find(id) : nullptr) {
      pushed.add_raw(id, o->entry);
      continue;
    }
    OdbObjectPtr obj;
    if (git_odb_read(obj.out(), odb.get(), &id) != 0) fail("cannot read object " + hex(&id) + " to push");
    std::string_view data(static_cast<const char *>(git_odb_object_data(obj.get())), git_odb_object_size(obj.get()));
    pushed.add_object(id, static_cast<PackType>(git_odb_object_type(obj.get())), data,
                      compression_level(data.size(), push.compression));
  }
  const fs::path git_dir = git_repository_commondir(dst.get());
  // The version pack first, then the pack that holds the commits: a commit
  // is never in the remote without the objects it names. `git clone` of a
  // local path copies the packs there at that instant without checking,
  // and libgit2's fetch asks nothing of a remote head whose commit object
  // the clone holds, so a clone taken between the two would keep a commit
  // it can never check out (WorkTree::fetch completes one all the same).
  if (!versions.empty()) {
    // Every big tree of the commit heads a chain, so that the next push
    // that changes it sends a delta.
    Seeds seeds;
    if (!big_trees(repo, odb.get(), local_id, seeds.ids)) fail("cannot read the trees to push");
    std::erase_if(seeds.ids, [&](const git_oid &id) {
      return std::any_of(versions.begin(), versions.end(), [&](const Version &v) { return git_oid_equal(&v.id, &id); });
    });
    seeds.read = [&](const git_oid &id) { return std::string(read(id)); };
    seeds.compression = push.compression;
    write_version_pack(git_dir, versions, push.flush, seeds);
  }
  if (pushed.count() > 0) {
    try {
      pushed.write(git_dir / "objects" / "pack", push.flush);
    } catch (const GitWriteError &e) {
      throw GitWriteError(std::string(url) + ": cannot write the pushed objects (" + e.what() + ")");
    }
  }
  if (push.before_update) push.before_update();
  RefPtr updated;
  int rc = git_reference_create_matching(updated.out(), dst.get(), ref.c_str(), &local_id, old ? 1 : 0,
                                         old ? &*old : nullptr, "otm: push");
  if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS || rc == GIT_ELOCKED) {
    git_error_clear();
    return {false, "the remote's " + branch + " moved while pushing (another writer pushed first)"};
  }
  if (rc != 0) throw GitWriteError(std::string(url) + ": cannot update " + ref + " (" + last_error() + ")");
  RefPtr track;
  if (git_reference_create(track.out(), repo, tracking.c_str(), &local_id, 1, "otm: push") != 0) git_error_clear();
  return {true, ""};
}

} // namespace otm::git::detail
