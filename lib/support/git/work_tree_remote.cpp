// WorkTree's exchange with a remote: fetch (and, from a local remote, the
// objects a clone lacks), push with its lease and credentials, and a local
// remote's hooks. The local tree is work_tree.cpp's.
#include "git/work_tree.hpp"

#include <git2.h>

#include "git/local_push.hpp"
#include "git/work_tree_impl.hpp"
#include "io/file.hpp"

#include <unistd.h>

namespace otm::git {

namespace fs = std::filesystem;

namespace {

using namespace detail;

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
                                         heads[i]->oid, have_id, detail::flush_writes(), impl_->compression());
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
                                         versioned_path, detail::flush_writes(), impl_->pending, impl_->compression()});

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

} // namespace otm::git
