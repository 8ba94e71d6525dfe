#include "git/work_tree.hpp"

#include "git/work_tree_impl.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "io/file.hpp"

namespace otm::git {

namespace fs = std::filesystem;

namespace {

using namespace detail;

// What set_flush_writes last said (libgit2 keeps it, but cannot be asked),
// for the packs otm writes itself.
std::atomic<bool> g_flush_writes{true};

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

} // namespace

namespace detail {

git_oid oid_of(const std::string &sha) {
  git_oid oid;
  if (git_oid_fromstr(&oid, sha.c_str()) != 0) throw GitWriteError("internal: '" + sha + "' is not a commit id");
  return oid;
}

bool flush_writes() { return g_flush_writes; }

bool under(const std::string &path, const std::string &prefix) {
  if (prefix.empty()) return true;
  return path == prefix ||
         (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 && path[prefix.size()] == '/');
}

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

} // namespace detail

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
