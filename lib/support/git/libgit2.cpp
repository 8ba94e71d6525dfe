#include "git/libgit2.hpp"

#include <mutex>

namespace otm::git::detail {

void ensure_libgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
  });
}

std::string last_error() {
  const git_error *e = git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

std::string hex(const git_oid *oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, oid);
  return buf;
}

} // namespace otm::git::detail
