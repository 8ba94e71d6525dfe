#include "git/repository.hpp"

#include <git2.h>

#include "git/libgit2.hpp"

#include "io/file.hpp"
#include "text/sha256.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace otm::git {
namespace {

using namespace detail;

std::string iso_date(const git_signature *sig) {
  git_time_t t = sig->when.time + static_cast<git_time_t>(sig->when.offset) * 60;
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  int off = sig->when.offset;
  char sign = off < 0 || sig->when.sign == '-' ? '-' : '+';
  if (off < 0) off = -off;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, sign, off / 60, off % 60);
  return buf;
}

// git's %s: the first paragraph with its line breaks folded into spaces;
// %b: everything after that paragraph's terminating blank line.
void split_message(const std::string &msg, std::string &subject, std::string &body) {
  std::size_t i = 0;
  while (i < msg.size() && (msg[i] == '\n' || msg[i] == '\r')) ++i; // leading blank lines
  std::size_t para_end = msg.find("\n\n", i);
  std::string para = msg.substr(i, para_end == std::string::npos ? std::string::npos : para_end - i);
  subject.clear();
  std::size_t pos = 0;
  while (pos <= para.size()) {
    auto nl = para.find('\n', pos);
    std::string line = para.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.pop_back();
    if (!line.empty()) {
      if (!subject.empty()) subject += ' ';
      subject += line;
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  if (para_end == std::string::npos) {
    body.clear();
    return;
  }
  std::size_t b = para_end + 2;
  while (b < msg.size() && msg[b] == '\n') ++b;
  body = msg.substr(b);
}

// The commits listed in <gitdir>/shallow: where a shallow clone's history
// was cut ("1a2b3c4d5e6f, ..."; at most three named).
std::string shallow_boundary(git_repository *repo) {
  std::string text;
  try {
    text = io::read_file(std::filesystem::path(git_repository_commondir(repo)) / "shallow", 1 << 20);
  } catch (const io::IoError &) {
    return "an unknown commit";
  }
  std::string out;
  std::size_t n = 0, pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    if (!line.empty()) {
      if (n < 3) out += (n ? ", " : "") + line.substr(0, 12);
      ++n;
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  if (n > 3) out += " and " + std::to_string(n - 3) + " more";
  return out.empty() ? "an unknown commit" : out;
}

// The read log's kinds (Repository::log_reads_to).
constexpr char kHead[] = "git.head", kCommit[] = "git.commit", kBlob[] = "git.blob", kConfig[] = "git.config",
               kAttr[] = "git.attr";

// Every configuration entry git would apply (all levels), as one digest.
std::string config_value(git_repository *repo) {
  git_config *cfg = nullptr;
  if (git_repository_config_snapshot(&cfg, repo) != 0) return "unreadable";
  std::string all;
  git_config_iterator *it = nullptr;
  if (git_config_iterator_new(&it, cfg) == 0) {
    git_config_entry *e = nullptr;
    while (git_config_next(&e, it) == 0) {
      ((all += e->name) += '=') += e->value ? e->value : "";
      all += '\n';
    }
    git_config_iterator_free(it);
  }
  git_config_free(cfg);
  return text::sha256_hex(all);
}

// The `diff` attribute of `path` (the diff driver: text, binary, a named one).
std::string attr_value(git_repository *repo, const std::string &path) {
  const char *v = nullptr;
  if (git_attr_get(&v, repo, GIT_ATTR_CHECK_FILE_THEN_INDEX, path.c_str(), "diff") != 0) return "unreadable";
  switch (git_attr_value(v)) {
  case GIT_ATTR_VALUE_TRUE: return "set";
  case GIT_ATTR_VALUE_FALSE: return "unset";
  case GIT_ATTR_VALUE_STRING: return std::string("=") + v;
  default: return "unspecified";
  }
}

std::string odb_has(git_repository *repo, const std::string &id) {
  git_oid oid;
  git_odb *odb = nullptr;
  if (id.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, id.c_str()) != 0 || git_repository_odb(&odb, repo) != 0)
    return "0";
  bool has = git_odb_exists(odb, &oid) == 1;
  git_odb_free(odb);
  return has ? "1" : "0";
}

} // namespace

struct Repository::Impl {
  git_repository *repo = nullptr;
  std::filesystem::path path;
  // What a path is at a commit, per (commit, path): otm-packet asks for the
  // same kernel.py entry of a commit several times (the blob comparison,
  // then the diff, for every packet whose range ends there); libgit2
  // re-read the commit and its tree each time. A handle is one thread's.
  struct PathEntry {
    git_oid id;
    git_filemode_t mode;
  };
  std::unordered_map<std::string, std::optional<PathEntry>> entries;
  // The last blobs diffed (libgit2 caches no blobs by default): consecutive
  // versions share one side, so each blob is inflated once, not twice.
  std::vector<std::pair<std::string, git_blob *>> blobs;
  static constexpr std::size_t kBlobCache = 8;
  // The same object database without a work tree, index or configuration
  // of its own: a blob-to-blob patch looks up the path's `diff` attribute in
  // the blobs' repository for each side (about ten failing stat, access and
  // readlink calls each: two thirds of a diff's system calls); in this one
  // the lookup finds no attribute files to read. Used only for a path
  // whose `diff` attribute is unspecified in both, where libgit2 diffs with
  // its default driver either way (the same bytes; tests/unit/git_diff_test.cpp).
  git_repository *plain = nullptr;
  std::vector<std::pair<std::string, bool>> plain_for; // path -> whether `plain` diffs it
  // A blob-to-blob patch prints git's default id length (7) whatever
  // core.abbrev says, where the two-tree diff honours it: with core.abbrev
  // set, diffs go through the trees.
  std::optional<bool> abbrev_set;
  io::ReadLog *log = nullptr;
  bool config_noted = false;
  std::vector<std::string> attrs_noted;
  void note(const char *kind, const std::string &arg, const std::string &value) const {
    if (log) log->note(arg.empty() ? std::string(kind) : std::string(kind) + '\t' + arg, value);
  }
  // What decides how a diff of `file` prints, noted once per handle.
  void note_diff_settings(const std::string &file) {
    if (!log) return;
    if (!config_noted) note(kConfig, "", config_value(repo));
    config_noted = true;
    if (std::find(attrs_noted.begin(), attrs_noted.end(), file) != attrs_noted.end()) return;
    attrs_noted.push_back(file); // one path (kernel.py) in practice
    note(kAttr, file, attr_value(repo, file));
  }
  bool default_abbrev() {
    if (!abbrev_set) {
      git_config *cfg = nullptr;
      git_config_entry *e = nullptr;
      bool set = true; // unreadable config: the trees decide
      if (git_repository_config_snapshot(&cfg, repo) == 0) {
        set = git_config_get_entry(&e, cfg, "core.abbrev") == 0;
        git_config_entry_free(e);
        git_config_free(cfg);
      }
      abbrev_set = set;
    }
    return !*abbrev_set;
  }
  ~Impl() {
    for (auto &b : blobs) git_blob_free(b.second);
    if (plain) git_repository_free(plain);
    if (repo) git_repository_free(repo);
  }
  // The repository whose blobs `file` is diffed between: `plain` when the
  // attribute leaves libgit2's default driver in both, else the trace's own.
  git_repository *diff_repo(const std::string &file) {
    for (const auto &[p, use] : plain_for)
      if (p == file) return use ? plain : repo;
    bool use = false;
    if (attr_value(repo, file) == "unspecified") {
      git_odb *odb = nullptr;
      if (!plain && git_repository_odb(&odb, repo) == 0) {
        if (git_repository_wrap_odb(&plain, odb) != 0) plain = nullptr;
        git_odb_free(odb);
      }
      use = plain && attr_value(plain, file) == "unspecified";
    }
    plain_for.emplace_back(file, use);
    return use ? plain : repo;
  }
  const std::optional<PathEntry> &entry(const std::string &commit, const std::string &file) {
    std::string key = commit;
    key += '\0';
    key += file;
    if (auto it = entries.find(key); it != entries.end()) return it->second;
    CommitPtr c;
    lookup_commit(commit, c);
    TreePtr tree;
    if (git_commit_tree(tree.out(), c.get()) != 0) throw GitError(path.string() + ": " + last_error());
    TreeEntryPtr e;
    std::optional<PathEntry> found;
    if (git_tree_entry_bypath(e.out(), tree.get(), file.c_str()) == 0 &&
        git_tree_entry_type(e.get()) == GIT_OBJECT_BLOB)
      found = PathEntry{*git_tree_entry_id(e.get()), git_tree_entry_filemode(e.get())};
    return entries.emplace(std::move(key), found).first->second;
  }
  // The blob with `oid`, read through `owner` (repo or plain), into `out`,
  // a reference of the caller's own (the cache may evict its copy while the
  // caller still reads it).
  void blob(const git_oid &oid, git_repository *owner, BlobPtr &out) {
    std::string id = hex(&oid);
    git_blob *cached = nullptr;
    for (auto &b : blobs)
      if (b.first == id && git_blob_owner(b.second) == owner) cached = b.second;
    if (!cached) {
      if (git_blob_lookup(&cached, owner, &oid) != 0)
        throw GitError(path.string() + ": no blob " + id + " (" + last_error() + ")");
      if (blobs.size() == kBlobCache) {
        git_blob_free(blobs.front().second);
        blobs.erase(blobs.begin());
      }
      blobs.emplace_back(std::move(id), cached);
    }
    if (git_blob_dup(out.out(), cached) != 0) throw GitError(path.string() + ": " + last_error());
  }
  void lookup_commit(const std::string &sha, CommitPtr &out) const {
    git_oid oid;
    if (git_oid_fromstr(&oid, sha.c_str()) != 0 || git_commit_lookup(out.out(), repo, &oid) != 0)
      throw GitError(path.string() + ": no commit " + sha + " (" + last_error() + ")");
    note(kCommit, sha, "1");
  }
};

Repository::~Repository() = default;
Repository::Repository(Repository &&) noexcept = default;
Repository &Repository::operator=(Repository &&) noexcept = default;

Repository Repository::open(const std::filesystem::path &path) {
  ensure_libgit2();
  Repository r;
  r.impl_ = std::make_unique<Impl>();
  r.impl_->path = path;
  if (git_repository_open_ext(&r.impl_->repo, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0)
    throw GitError(path.string() + ": not a git repository (" + last_error() + ")");
  return r;
}

const std::filesystem::path &Repository::path() const { return impl_->path; }

Repository Repository::reopen() const {
  auto r = open(path());
  r.log_reads_to(impl_->log);
  return r;
}

void Repository::log_reads_to(io::ReadLog *log) { impl_->log = log; }

std::optional<std::string> Repository::reread(const std::string &key) const {
  auto tab = key.find('\t');
  std::string kind = key.substr(0, tab), arg = tab == std::string::npos ? "" : key.substr(tab + 1);
  if (kind == kHead) {
    git_oid oid;
    return git_reference_name_to_id(&oid, impl_->repo, "HEAD") == 0 ? hex(&oid) : "none";
  }
  // An id names one content for good: only whether it is there can change.
  if (kind == kCommit || kind == kBlob) return odb_has(impl_->repo, arg);
  if (kind == kConfig) return config_value(impl_->repo);
  if (kind == kAttr) return attr_value(impl_->repo, arg);
  return std::nullopt;
}

std::optional<std::string> Repository::head() const {
  git_oid oid;
  if (git_reference_name_to_id(&oid, impl_->repo, "HEAD") != 0) {
    impl_->note(kHead, "", "none");
    return std::nullopt;
  }
  impl_->note(kHead, "", hex(&oid));
  return hex(&oid);
}

std::vector<Commit> Repository::commits_oldest_first() const {
  std::vector<Commit> out;
  if (!head()) return out;
  // A shallow clone's history ends at a cut: the versions before it are
  // gone and the verdicts after it would be judged against the wrong
  // floor. Refuse, naming the cut (libgit2 1.5 cannot walk it anyway).
  if (git_repository_is_shallow(impl_->repo) == 1) {
    throw GitError(impl_->path.string() + ": a shallow clone (history cut at " + shallow_boundary(impl_->repo) + ")" +
                   "; its history before the cut is missing. Fetch the whole history (git fetch --unshallow) "
                   "and run again");
  }
  WalkPtr walk;
  if (git_revwalk_new(walk.out(), impl_->repo) != 0) throw GitError(impl_->path.string() + ": " + last_error());
  git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME | GIT_SORT_REVERSE);
  if (git_revwalk_push_head(walk.get()) != 0) throw GitError(impl_->path.string() + ": " + last_error());
  git_oid oid;
  int rc;
  while ((rc = git_revwalk_next(&oid, walk.get())) == 0) {
    CommitPtr c;
    if (git_commit_lookup(c.out(), impl_->repo, &oid) != 0)
      throw GitError(impl_->path.string() + ": history is incomplete: commit " + hex(&oid) + " cannot be read (" +
                     last_error() + "); repair the repository (git fsck) or fetch the missing objects");
    Commit row;
    row.sha = hex(&oid);
    for (unsigned i = 0; i < git_commit_parentcount(c.get()); ++i)
      row.parents.push_back(hex(git_commit_parent_id(c.get(), i)));
    row.author_date = iso_date(git_commit_author(c.get()));
    const char *msg = git_commit_message(c.get());
    split_message(msg ? msg : "", row.subject, row.body);
    out.push_back(std::move(row));
  }
  // The walk ends with GIT_ITEROVER; anything else is a commit it could not
  // load (a deleted or never-fetched object), which must not pass for the
  // beginning of the history.
  if (rc != GIT_ITEROVER)
    throw GitError(impl_->path.string() + ": history is incomplete after " + std::to_string(out.size()) +
                   " commits: " + last_error() + "; repair the repository (git fsck) or fetch the missing objects");
  return out;
}

bool Repository::has_commit(const std::string &sha) const {
  git_oid oid;
  if (sha.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, sha.c_str()) != 0) return false;
  CommitPtr c;
  bool has = git_commit_lookup(c.out(), impl_->repo, &oid) == 0;
  impl_->note(kCommit, sha, has ? "1" : "0");
  return has;
}

std::optional<std::string> Repository::blob_id(const std::string &commit, const std::string &path) const {
  const auto &e = impl_->entry(commit, path);
  if (!e) return std::nullopt;
  return hex(&e->id);
}

std::string Repository::blob_content(const std::string &id) const {
  git_oid oid;
  BlobPtr blob;
  if (git_oid_fromstr(&oid, id.c_str()) != 0 || git_blob_lookup(blob.out(), impl_->repo, &oid) != 0)
    throw GitError(impl_->path.string() + ": no blob " + id + " (" + last_error() + ")");
  impl_->note(kBlob, id, "1");
  auto *data = static_cast<const char *>(git_blob_rawcontent(blob.get()));
  return std::string(data, static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

void Repository::with_blob(const std::string &id, const std::function<void(std::string_view)> &fn) const {
  git_oid oid;
  BlobPtr blob;
  if (git_oid_fromstr(&oid, id.c_str()) != 0 || git_blob_lookup(blob.out(), impl_->repo, &oid) != 0)
    throw GitError(impl_->path.string() + ": no blob " + id + " (" + last_error() + ")");
  impl_->note(kBlob, id, "1");
  fn(std::string_view(static_cast<const char *>(git_blob_rawcontent(blob.get())),
                      static_cast<std::size_t>(git_blob_rawsize(blob.get()))));
}

std::optional<std::string> Repository::read_at(const std::string &commit, const std::string &path) const {
  auto id = blob_id(commit, path);
  if (!id) return std::nullopt;
  return blob_content(*id);
}

std::string Repository::diff_path(const std::string &from, const std::string &to, const std::string &path) const {
  impl_->note_diff_settings(path);
  if (from.empty() || !impl_->default_abbrev()) return diff_path_via_trees(from, to, path);
  auto old_e = impl_->entry(from, path);
  auto new_e = impl_->entry(to, path);
  if (!old_e || !new_e || old_e->mode != GIT_FILEMODE_BLOB || new_e->mode != GIT_FILEMODE_BLOB)
    return diff_path_via_trees(from, to, path);
  if (git_oid_equal(&old_e->id, &new_e->id)) return {}; // unchanged: no delta
  git_repository *owner = impl_->diff_repo(path);
  BlobPtr old_blob, new_blob;
  impl_->blob(old_e->id, owner, old_blob);
  impl_->blob(new_e->id, owner, new_blob);
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  PatchPtr patch;
  if (git_patch_from_blobs(patch.out(), old_blob.get(), path.c_str(), new_blob.get(), path.c_str(), &opts) != 0)
    throw GitError(impl_->path.string() + ": diff failed (" + last_error() + ")");
  git_buf buf = GIT_BUF_INIT;
  if (git_patch_to_buf(&buf, patch.get()) != 0)
    throw GitError(impl_->path.string() + ": diff failed (" + last_error() + ")");
  std::string out(buf.ptr ? buf.ptr : "", buf.size);
  git_buf_dispose(&buf);
  return out;
}

std::string Repository::diff_path_via_trees(const std::string &from, const std::string &to,
                                            const std::string &path) const {
  impl_->note_diff_settings(path);
  TreePtr old_tree, new_tree;
  CommitPtr old_c, new_c;
  if (!from.empty()) {
    impl_->lookup_commit(from, old_c);
    if (git_commit_tree(old_tree.out(), old_c.get()) != 0) throw GitError(last_error());
  }
  impl_->lookup_commit(to, new_c);
  if (git_commit_tree(new_tree.out(), new_c.get()) != 0) throw GitError(last_error());
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  char *spec = const_cast<char *>(path.c_str());
  opts.pathspec.strings = &spec;
  opts.pathspec.count = 1;
  opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  DiffPtr diff;
  if (git_diff_tree_to_tree(diff.out(), impl_->repo, old_tree.get(), new_tree.get(), &opts) != 0)
    throw GitError(impl_->path.string() + ": diff failed (" + last_error() + ")");
  git_buf buf = GIT_BUF_INIT;
  if (git_diff_to_buf(&buf, diff.get(), GIT_DIFF_FORMAT_PATCH) != 0)
    throw GitError(impl_->path.string() + ": diff failed (" + last_error() + ")");
  std::string out(buf.ptr ? buf.ptr : "", buf.size);
  git_buf_dispose(&buf);
  return out;
}

} // namespace otm::git
