#include "git/work_tree.hpp"

#include <git2.h>

#include "git/libgit2.hpp"
#include "git/local_push.hpp"
#include "git/pending_objects.hpp"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <mutex>

#include "io/file.hpp"

namespace otm::git {

namespace fs = std::filesystem;

namespace {

using namespace detail;

git_oid oid_of(const std::string &sha) {
  git_oid oid;
  if (git_oid_fromstr(&oid, sha.c_str()) != 0) throw GitWriteError("internal: '" + sha + "' is not a commit id");
  return oid;
}

// What set_flush_writes last said (libgit2 keeps it, but cannot be asked),
// for the packs otm writes itself.
std::atomic<bool> g_flush_writes{true};

bool under(const std::string &path, const std::string &prefix) {
  if (prefix.empty()) return true;
  return path == prefix ||
         (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 && path[prefix.size()] == '/');
}

// Reads `path` into `content` with its stat (taken before the read) into
// `st` when it is a regular file; false when it is absent or something
// else (a symbolic link, a directory). Throws GitWriteError when it cannot
// be read.
bool read_regular_file(const fs::path &path, struct stat &st, std::string &content) {
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    throw GitWriteError(path.string() + ": cannot read (" + std::strerror(err) + ")");
  }
  content.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < content.size()) {
    ssize_t n = ::read(fd, content.data() + got, content.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : EIO;
      ::close(fd);
      throw GitWriteError(path.string() + ": cannot read (" +
                          (n == 0 ? std::string("it shrank while read") : std::strerror(err)) + ")");
    }
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return true;
}

// git's pack.compression, else core.compression, when the repository (or
// the user's or system's git config) sets one: the zlib level of every
// object in the packs otm writes, as git applies it (pack_writer.hpp).
std::optional<int> configured_compression(git_repository *repo) {
  git_config *cfg = nullptr;
  if (git_repository_config_snapshot(&cfg, repo) != 0) {
    git_error_clear();
    return std::nullopt;
  }
  std::optional<int> level;
  for (const char *key : {"pack.compression", "core.compression"}) {
    std::int32_t v = 0;
    if (git_config_get_int32(&v, cfg, key) == 0) {
      level = v;
      break;
    }
  }
  git_error_clear();
  git_config_free(cfg);
  return level;
}

// A remote URL naming a repository on this machine: libgit2's local
// transport, which otm replaces for pushing (local_push.hpp).
std::optional<fs::path> local_remote_path(const std::string &url, const fs::path &workdir) {
  if (url.rfind("file://", 0) == 0) return fs::path(url.substr(7));
  if (url.find("://") != std::string::npos) return std::nullopt;
  // scp-like "host:path" is ssh; a path has no colon before its first slash.
  auto colon = url.find(':');
  auto slash = url.find('/');
  if (colon != std::string::npos && (slash == std::string::npos || colon < slash)) return std::nullopt;
  fs::path p(url);
  return p.is_absolute() ? p : workdir / p;
}

// Credentials for a network remote: the ssh agent's keys, or the
// platform's default (Negotiate/NTLM) credentials; nothing interactive. A
// second request means the first was refused: stop instead of looping.
struct RemoteState {
  int asked = 0;
  std::string rejected; // the remote's reason, when it refused the update
  // The push's lease (WorkTree::push): the commit the remote's branch must
  // still be, and why the push stopped when it was not.
  std::optional<std::string> expected;
  std::string ref;
  std::string lease_broken;
};

int credentials(git_credential **out, const char *, const char *username_from_url, unsigned int allowed,
                void *payload) {
  auto *state = static_cast<RemoteState *>(payload);
  if (state->asked++ > 0) {
    git_error_set_str(GIT_ERROR_NET, "the remote refused the credentials offered (ssh agent keys)");
    return GIT_EAUTH;
  }
  if (allowed & GIT_CREDENTIAL_SSH_KEY)
    return git_credential_ssh_key_from_agent(out, username_from_url ? username_from_url : "git");
  if (allowed & GIT_CREDENTIAL_DEFAULT) return git_credential_default_new(out);
  git_error_set_str(GIT_ERROR_NET, "the remote asks for a user name and password, which otm cannot supply "
                                   "(use an ssh remote with a key in ssh-agent, or a file:// or local path remote)");
  return GIT_EAUTH;
}

// Before anything is sent: the remote advertises its branch's commit, which
// receive-pack will compare-and-swap against; it must be the leased one.
int on_push_negotiation(const git_push_update **updates, size_t len, void *payload) {
  auto *state = static_cast<RemoteState *>(payload);
  for (size_t i = 0; i < len; ++i) {
    if (state->ref != updates[i]->dst_refname) continue;
    bool absent = git_oid_is_zero(&updates[i]->dst);
    std::string now = absent ? std::string() : hex(&updates[i]->dst);
    if ((absent && !state->expected) || (state->expected && now == *state->expected)) continue;
    state->lease_broken = "the remote's " + state->ref + " is at " +
                          (absent ? std::string("nothing") : now.substr(0, 12)) + ", not " +
                          (state->expected ? state->expected->substr(0, 12) : std::string("absent")) +
                          " as the sync saw it (another writer pushed first, or it was rewound)";
    git_error_set_str(GIT_ERROR_NET, state->lease_broken.c_str());
    return -1;
  }
  return 0;
}

int on_push_update(const char *refname, const char *status, void *payload) {
  if (status) static_cast<RemoteState *>(payload)->rejected = std::string(refname) + ": " + status;
  return 0;
}

} // namespace

void set_flush_writes(bool on) {
  ensure_libgit2();
  g_flush_writes = on;
  git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, on ? 1 : 0);
}

std::optional<Signature> parse_signature(const std::string &text) {
  auto lt = text.find('<');
  auto gt = text.rfind('>');
  if (lt == std::string::npos || gt == std::string::npos || gt < lt || gt + 1 != text.size()) return std::nullopt;
  std::string name = text.substr(0, lt);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  std::string email = text.substr(lt + 1, gt - lt - 1);
  if (name.empty() || email.empty() || email.find_first_of("<>\n") != std::string::npos ||
      name.find_first_of("<>\n") != std::string::npos)
    return std::nullopt;
  return Signature{name, email};
}

struct WorkTree::Impl {
  RepoPtr repo;
  fs::path root;
  detail::PendingObjects *pending = nullptr; // owned by the repository's object database

  detail::PendingObjects &pending_objects() {
    if (!pending) {
      OdbPtr odb;
      if (git_repository_odb(odb.out(), repo.get()) != 0) fail("cannot open the object database");
      pending = &detail::PendingObjects::attach(odb.get());
    }
    return *pending;
  }

  std::optional<int> compression() const { return configured_compression(repo.get()); }

  [[noreturn]] void fail(const std::string &what) const {
    throw GitWriteError(root.string() + ": " + what + " (" + last_error() + ")");
  }

  void lookup_commit(const std::string &sha, CommitPtr &out) const {
    git_oid oid = oid_of(sha);
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
    StatusPtr list;
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
      return !all && std::none_of(prefixes.begin(), prefixes.end(), [&](const auto &x) { return under(p, x); });
    });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
};

WorkTree::~WorkTree() = default;
WorkTree::WorkTree(WorkTree &&) noexcept = default;
WorkTree &WorkTree::operator=(WorkTree &&) noexcept = default;

std::optional<WorkTree> WorkTree::discover(const fs::path &dir, std::string *refused) {
  // Without a .git in `dir` or above there is no work tree, and starting
  // libgit2 (which reads the system's certificates) would only slow down
  // every admission into a plain store.
  {
    std::error_code ec;
    fs::path p = fs::absolute(dir, ec);
    bool found = false;
    for (; !ec && !found; p = p.parent_path()) {
      found = fs::exists(p / ".git", ec);
      if (p == p.parent_path()) break;
    }
    if (!found) return std::nullopt;
  }
  ensure_libgit2();
  auto impl = std::make_unique<Impl>();
  if (int rc = git_repository_open_ext(impl->repo.out(), dir.c_str(), 0, nullptr); rc != 0) {
    // A repository owned by someone else is there but refused (git's
    // safe.directory); the caller may want to say so.
    if (rc == GIT_EOWNER && refused) *refused = last_error();
    git_error_clear();
    return std::nullopt;
  }
  if (git_repository_is_bare(impl->repo.get())) return std::nullopt;
  const char *wd = git_repository_workdir(impl->repo.get());
  if (!wd) return std::nullopt;
  std::error_code ec;
  impl->root = fs::canonical(wd, ec);
  if (ec) impl->root = fs::path(wd).lexically_normal();
  WorkTree t;
  t.impl_ = std::move(impl);
  return t;
}

const fs::path &WorkTree::root() const { return impl_->root; }

std::string WorkTree::relative(const fs::path &path) const {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  if (ec) p = fs::absolute(path).lexically_normal();
  std::string rel = p.lexically_relative(impl_->root).generic_string();
  if (rel == ".") return "";
  if (rel.rfind("..", 0) == 0)
    throw GitWriteError(path.string() + ": not inside the work tree " + impl_->root.string());
  return rel;
}

std::optional<std::string> WorkTree::head() const {
  git_oid oid;
  if (git_reference_name_to_id(&oid, impl_->repo.get(), "HEAD") != 0) {
    git_error_clear();
    return std::nullopt;
  }
  return hex(&oid);
}

std::string WorkTree::branch() const {
  RefPtr ref;
  if (git_reference_lookup(ref.out(), impl_->repo.get(), "HEAD") != 0) impl_->fail("cannot read HEAD");
  if (git_reference_type(ref.get()) != GIT_REFERENCE_SYMBOLIC)
    throw GitWriteError(impl_->root.string() +
                        ": HEAD is detached; check out the store's branch (git switch main) before admitting");
  std::string target = git_reference_symbolic_target(ref.get());
  const std::string prefix = "refs/heads/";
  if (target.rfind(prefix, 0) != 0)
    throw GitWriteError(impl_->root.string() + ": HEAD names " + target + ", not a branch");
  return target.substr(prefix.size());
}

bool WorkTree::tracked(const std::string &relpath) const {
  IndexPtr index;
  if (git_repository_index(index.out(), impl_->repo.get()) != 0) impl_->fail("cannot read the index");
  return git_index_get_bypath(index.get(), relpath.c_str(), 0) != nullptr;
}

bool WorkTree::is_ancestor(const std::string &ancestor, const std::string &descendant) const {
  if (ancestor == descendant) return true;
  git_oid a = oid_of(ancestor), d = oid_of(descendant);
  int rc = git_graph_descendant_of(impl_->repo.get(), &d, &a);
  if (rc < 0) {
    git_error_clear();
    return false;
  }
  return rc == 1;
}

std::vector<std::string> WorkTree::changed_paths(const std::vector<std::string> &prefixes) const {
  return impl_->status(prefixes, false);
}

std::string WorkTree::commit_files(const std::vector<std::string> &relpaths, const std::string &message,
                                   const Signature &who) {
  git_repository *repo = impl_->repo.get();
  detail::PendingObjects &pending = impl_->pending_objects();
  pending.clear();
  // The commit's new objects are held in memory and written as one pack
  // below (pending_objects.hpp), not as a zlib loose file each.
  struct Capture {
    detail::PendingObjects &p;
    bool done = false;
    explicit Capture(detail::PendingObjects &x) : p(x) { p.capture(true); }
    ~Capture() {
      p.capture(false);
      if (!done) p.clear();
    }
  } capture(pending);
  auto parent_sha = head();
  CommitPtr parent;
  IndexPtr mem;
  if (git_index_new(mem.out()) != 0) impl_->fail("cannot create an index");
  if (parent_sha) {
    impl_->lookup_commit(*parent_sha, parent);
    TreePtr tree;
    if (git_commit_tree(tree.out(), parent.get()) != 0 || git_index_read_tree(mem.get(), tree.get()) != 0)
      impl_->fail("cannot read HEAD's tree");
  }
  OdbPtr odb;
  if (git_repository_odb(odb.out(), repo) != 0) impl_->fail("cannot open the object database");
  // Each file's entry for the repository's own index: its stat as it was
  // before it was read (a later change shows as one) and its id, so that
  // the index follows without hashing the file again.
  std::vector<std::optional<git_index_entry>> staged(relpaths.size());
  for (std::size_t i = 0; i < relpaths.size(); ++i) {
    const std::string &rel = relpaths[i];
    struct stat st {};
    std::string content;
    if (!read_regular_file(impl_->root / rel, st, content)) {
      if (git_index_remove(mem.get(), rel.c_str(), 0) != 0) git_error_clear(); // not in HEAD either
      continue;
    }
    git_index_entry entry{};
    // The file's bytes as they are: no attribute's filter rewrites a
    // record on its way into the store's history.
    if (git_odb_write(&entry.id, odb.get(), content.data(), content.size(), GIT_OBJECT_BLOB) != 0)
      impl_->fail("cannot store " + rel);
    entry.mode = (st.st_mode & S_IXUSR) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
    entry.path = rel.c_str();
    entry.file_size = static_cast<std::uint32_t>(st.st_size);
    if (git_index_add(mem.get(), &entry) != 0) impl_->fail("cannot stage " + rel);
    entry.ctime = {static_cast<std::int32_t>(st.st_ctim.tv_sec), static_cast<std::uint32_t>(st.st_ctim.tv_nsec)};
    entry.mtime = {static_cast<std::int32_t>(st.st_mtim.tv_sec), static_cast<std::uint32_t>(st.st_mtim.tv_nsec)};
    entry.dev = static_cast<std::uint32_t>(st.st_dev);
    entry.ino = static_cast<std::uint32_t>(st.st_ino);
    entry.uid = static_cast<std::uint32_t>(st.st_uid);
    entry.gid = static_cast<std::uint32_t>(st.st_gid);
    // Known to match the work tree: libgit2 does not diff it again when
    // it writes the index (its racy-entry check).
    entry.flags_extended = GIT_INDEX_ENTRY_UPTODATE;
    staged[i] = entry;
  }
  git_oid tree_id;
  TreePtr tree;
  if (git_index_write_tree_to(&tree_id, mem.get(), repo) != 0 || git_tree_lookup(tree.out(), repo, &tree_id) != 0)
    impl_->fail("cannot write the commit's tree");
  SigPtr sig;
  if (git_signature_now(sig.out(), who.name.c_str(), who.email.c_str()) != 0)
    impl_->fail("invalid author '" + who.name + " <" + who.email + ">'");
  const git_commit *parents[1] = {parent.get()};
  git_oid commit_id;
  if (git_commit_create(&commit_id, repo, nullptr, sig.get(), sig.get(), nullptr, message.c_str(), tree.get(),
                        parent_sha ? 1 : 0, parents) != 0)
    impl_->fail("cannot commit");
  pending.capture(false);
  // The objects on disk (flushed as the git directory's writes are) before
  // any ref names them.
  pending.write_pack(fs::path(git_repository_commondir(repo)) / "objects" / "pack", g_flush_writes,
                     impl_->compression());
  if (git_odb_refresh(odb.get()) != 0) impl_->fail("cannot read the new pack");
  capture.done = true;
  // The branch moves only if it still is the parent (git commit's own
  // check), so a branch moved behind otm's back fails here instead of being
  // overwritten.
  CommitPtr made;
  if (git_commit_lookup(made.out(), repo, &commit_id) != 0) impl_->fail("cannot read the new commit");
  const char *summary = git_commit_summary(made.get());
  std::string reflog = std::string(parent_sha ? "commit: " : "commit (initial): ") + (summary ? summary : "");
  // HEAD's branch (created when unborn), or HEAD itself when detached.
  std::string branch_ref = "HEAD";
  {
    RefPtr head_ref;
    if (git_reference_lookup(head_ref.out(), repo, "HEAD") != 0) impl_->fail("cannot read HEAD");
    if (git_reference_type(head_ref.get()) == GIT_REFERENCE_SYMBOLIC)
      branch_ref = git_reference_symbolic_target(head_ref.get());
  }
  RefPtr moved;
  git_oid parent_id{};
  if (parent_sha) parent_id = *git_commit_id(parent.get());
  if (git_reference_create_matching(moved.out(), repo, branch_ref.c_str(), &commit_id, parent_sha ? 1 : 0,
                                    parent_sha ? &parent_id : nullptr, reflog.c_str()) != 0)
    impl_->fail("cannot commit (" + branch_ref + " is no longer " +
                (parent_sha ? parent_sha->substr(0, 12) : std::string("unborn")) + ")");
  // The repository's own index follows for these paths, so `git status`
  // shows the commit as clean; other staged work is left as it was.
  IndexPtr index;
  if (git_repository_index(index.out(), repo) != 0 || git_index_read(index.get(), 0) != 0)
    impl_->fail("cannot read the index");
  for (std::size_t i = 0; i < relpaths.size(); ++i) {
    int rc =
        staged[i] ? git_index_add(index.get(), &*staged[i]) : git_index_remove_bypath(index.get(), relpaths[i].c_str());
    if (rc != 0) impl_->fail("cannot update the index for " + relpaths[i]);
  }
  if (git_index_write(index.get()) != 0) impl_->fail("cannot write the index");
  return hex(&commit_id);
}

void WorkTree::reset_hard(const std::string &commit, const std::vector<std::string> &clean_prefixes) {
  git_oid oid = oid_of(commit);
  ObjectPtr target;
  if (git_object_lookup(target.out(), impl_->repo.get(), &oid, GIT_OBJECT_COMMIT) != 0)
    impl_->fail("no commit " + commit);
  git_checkout_options co;
  git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
  co.checkout_strategy = GIT_CHECKOUT_FORCE;
  co.disable_filters = 1; // the store's files are its commits' bytes, whatever the attributes say
  if (git_reset(impl_->repo.get(), target.get(), GIT_RESET_HARD, &co) != 0) impl_->fail("cannot reset to " + commit);
  clean(clean_prefixes);
}

void WorkTree::restore(const std::vector<std::string> &prefixes) {
  git_checkout_options co;
  git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
  co.checkout_strategy = GIT_CHECKOUT_FORCE;
  co.disable_filters = 1;
  std::vector<char *> specs;
  for (const auto &p : prefixes) specs.push_back(const_cast<char *>(p.c_str()));
  co.paths.strings = specs.data();
  co.paths.count = specs.size();
  if (git_checkout_head(impl_->repo.get(), &co) != 0) impl_->fail("cannot restore the store's files from HEAD");
  clean(prefixes);
}

void WorkTree::clean(const std::vector<std::string> &prefixes) {
  for (const auto &rel : impl_->status(prefixes, true)) {
    fs::path p = impl_->root / rel;
    if (::unlink(p.c_str()) != 0 && errno != ENOENT) impl_->fail("cannot remove the untracked file " + rel);
    // Directories left empty go too (git has no record of them).
    for (fs::path d = p.parent_path(); d != impl_->root && ::rmdir(d.c_str()) == 0; d = d.parent_path()) {
    }
  }
}

std::optional<std::string> WorkTree::fetch(const std::string &remote_name, const std::string &branch) {
  RemotePtr remote;
  if (git_remote_lookup(remote.out(), impl_->repo.get(), remote_name.c_str()) != 0)
    throw GitWriteError(impl_->root.string() + ": no remote named '" + remote_name +
                        "' (add it with git remote add, or pass the remote's name with --remote / OTM_LIVE_REMOTE)");
  // libgit2 takes no relative path for a URL; git reads one from the work
  // tree's root, and so does otm (the same remote, under its own name).
  std::optional<fs::path> path;
  if (const char *url = git_remote_url(remote.get())) {
    path = local_remote_path(url, impl_->root);
    if (path && std::string(url) != path->string() && std::string(url).rfind("file://", 0) != 0) {
      RemotePtr absolute;
      if (git_remote_create_anonymous(absolute.out(), impl_->repo.get(), path->lexically_normal().c_str()) != 0)
        impl_->fail("cannot open the remote " + path->string());
      std::swap(remote.p, absolute.p);
    }
  }
  auto have = head();
  std::string spec = "+refs/heads/" + branch + ":refs/remotes/" + remote_name + "/" + branch;
  char *specs[] = {spec.data()};
  git_strarray refspecs{specs, 1};
  git_fetch_options fo;
  git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
  RemoteState state;
  fo.callbacks.credentials = credentials;
  fo.callbacks.payload = &state;
  fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
  if (git_remote_fetch(remote.get(), &refspecs, &fo, "otm: fetch") != 0)
    impl_->fail("cannot fetch " + branch + " from " + remote_name);
  // What the remote advertised in this fetch, not a tracking ref a
  // previous fetch may have left.
  const git_remote_head **heads = nullptr;
  size_t n = 0;
  if (git_remote_ls(&heads, &n, remote.get()) != 0) impl_->fail("cannot list the branches of " + remote_name);
  const std::string want = "refs/heads/" + branch;
  for (size_t i = 0; i < n; ++i) {
    if (want != heads[i]->name) continue;
    // libgit2 fetched nothing if the clone held the head's commit, which
    // a `git clone` of a local path taken during a push can hold without
    // its objects (local_push.hpp).
    if (path) {
      std::optional<git_oid> have_id;
      if (have) have_id = oid_of(*have);
      detail::complete_from_local_remote(impl_->repo.get(), git_repository_commondir(impl_->repo.get()), *path,
                                         heads[i]->oid, have_id, g_flush_writes, impl_->compression());
    }
    return hex(&heads[i]->oid);
  }
  return std::nullopt;
}

PushResult WorkTree::push(const std::string &remote_name, const std::string &branch,
                          const std::optional<std::string> &expected, const std::function<void()> &before_update,
                          const std::string &versioned_path) {
  git_repository *repo = impl_->repo.get();
  auto local = head();
  if (!local) throw GitWriteError(impl_->root.string() + ": nothing to push (the branch has no commit)");
  RemotePtr remote;
  if (git_remote_lookup(remote.out(), repo, remote_name.c_str()) != 0)
    throw GitWriteError(impl_->root.string() + ": no remote named '" + remote_name + "'");
  const char *url = git_remote_pushurl(remote.get()) ? git_remote_pushurl(remote.get()) : git_remote_url(remote.get());
  if (!url) throw GitWriteError(impl_->root.string() + ": remote '" + remote_name + "' has no URL");
  const std::string ref = "refs/heads/" + branch;
  git_oid local_id = oid_of(*local);

  // A remote on this machine: otm's own push, whose branch update is a
  // compare-and-swap (local_push.hpp).
  if (auto path = local_remote_path(url, impl_->root))
    return detail::push_to_local_remote(*this, repo,
                                        {local_id, *path, url, remote_name, branch, expected, before_update,
                                         versioned_path, g_flush_writes, impl_->pending, impl_->compression()});

  // A network remote: the server (receive-pack) updates the branch only if
  // it still holds the commit this push was based on.
  std::string spec = ref + ":" + ref;
  char *specs[] = {spec.data()};
  git_strarray refspecs{specs, 1};
  git_push_options po;
  git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION);
  RemoteState state;
  po.callbacks.credentials = credentials;
  po.callbacks.push_update_reference = on_push_update;
  po.callbacks.push_negotiation = on_push_negotiation;
  state.expected = expected;
  state.ref = ref;
  po.callbacks.payload = &state;
  if (before_update) before_update();
  int rc = git_remote_push(remote.get(), &refspecs, &po);
  if (!state.lease_broken.empty()) {
    git_error_clear();
    return {false, state.lease_broken};
  }
  if (rc == GIT_ENONFASTFORWARD) {
    std::string why = last_error();
    git_error_clear();
    return {false, why};
  }
  if (rc != 0) impl_->fail("cannot push " + branch + " to " + remote_name);
  if (!state.rejected.empty()) return {false, "the remote refused " + state.rejected};
  return {true, ""};
}

std::vector<std::string> WorkTree::local_remote_hooks(const std::string &remote_name) const {
  RemotePtr remote;
  if (git_remote_lookup(remote.out(), impl_->repo.get(), remote_name.c_str()) != 0) {
    git_error_clear();
    return {};
  }
  const char *url = git_remote_pushurl(remote.get()) ? git_remote_pushurl(remote.get()) : git_remote_url(remote.get());
  if (!url) return {};
  auto path = local_remote_path(url, impl_->root);
  if (!path) return {};
  RepoPtr dst;
  if (git_repository_open_ext(dst.out(), path->c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    git_error_clear();
    return {};
  }
  // core.hooksPath of the remote, else its hooks/ (git's own rule).
  fs::path dir = fs::path(git_repository_commondir(dst.get())) / "hooks";
  git_config *cfg = nullptr;
  if (git_repository_config_snapshot(&cfg, dst.get()) == 0) {
    git_buf buf = GIT_BUF_INIT;
    if (git_config_get_path(&buf, cfg, "core.hooksPath") == 0) {
      fs::path p = buf.ptr;
      dir = p.is_absolute() ? p : fs::path(git_repository_commondir(dst.get())) / p;
    }
    git_buf_dispose(&buf);
    git_config_free(cfg);
  }
  git_error_clear();
  std::vector<std::string> out;
  for (const char *name : {"pre-receive", "update", "proc-receive", "reference-transaction", "post-receive",
                           "post-update", "push-to-checkout"}) {
    fs::path h = dir / name;
    if (::access(h.c_str(), X_OK) == 0 && io::is_regular_file(h)) out.emplace_back(name);
  }
  return out;
}

std::vector<std::string> WorkTree::rewriting_attributes(const std::vector<std::string> &relpaths,
                                                        const std::optional<std::string> &commit) const {
  static const char *names[] = {"text", "eol", "crlf", "filter", "ident", "working-tree-encoding"};
  git_attr_options opts = GIT_ATTR_OPTIONS_INIT;
  opts.flags = GIT_ATTR_CHECK_FILE_THEN_INDEX | GIT_ATTR_CHECK_INCLUDE_HEAD;
  if (commit) {
    opts.flags |= GIT_ATTR_CHECK_INCLUDE_COMMIT;
    opts.attr_commit_id = oid_of(*commit);
  }
  std::vector<std::string> out;
  for (const auto &rel : relpaths) {
    const char *values[std::size(names)] = {};
    if (git_attr_get_many_ext(values, impl_->repo.get(), &opts, rel.c_str(), std::size(names), names) != 0) {
      git_error_clear();
      continue;
    }
    std::string set;
    for (std::size_t i = 0; i < std::size(names); ++i) {
      auto v = git_attr_value(values[i]);
      // Unset (-text) or unspecified leaves the bytes alone.
      if (v == GIT_ATTR_VALUE_UNSPECIFIED || v == GIT_ATTR_VALUE_FALSE) continue;
      set += std::string(set.empty() ? "" : ", ") + names[i] +
             (v == GIT_ATTR_VALUE_STRING ? "=" + std::string(values[i]) : std::string());
    }
    if (!set.empty()) out.push_back(rel + ": " + set);
  }
  return out;
}

void WorkTree::ensure_excluded(const std::vector<std::string> &patterns) {
  fs::path file = fs::path(git_repository_commondir(impl_->repo.get())) / "info" / "exclude";
  std::string text;
  if (io::is_regular_file(file)) text = io::read_file(file);
  std::string add;
  for (const auto &p : patterns) {
    bool present = false;
    std::size_t pos = 0;
    while (pos <= text.size()) {
      auto nl = text.find('\n', pos);
      if (text.compare(pos, nl == std::string::npos ? std::string::npos : nl - pos, p) == 0) present = true;
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
    if (!present) add += p + "\n";
  }
  if (add.empty()) return;
  if (!text.empty() && text.back() != '\n') text += '\n';
  io::write_file_atomic(file, text + "# otm: the live store's journal and temporary files\n" + add);
}

} // namespace otm::git
