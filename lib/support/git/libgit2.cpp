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

#if defined(__SANITIZE_ADDRESS__)
// LeakSanitizer's built-in suppressions for every program that reaches
// libgit2 through this file: Debian's libgit2 1.5 leaks the PCRE2 match data
// of a config regex search that finds nothing (git_remote_lookup, on every
// push; fixed upstream by libgit2 pull request #6382), which would fail
// each sanitizer test that pushes. The allocation stack stops inside
// libpcre2 (built without frame pointers), so the suppression names the
// library: otm's own PCRE2 objects are each held by a handle that frees it
// (text/regex.cpp), and leaks of otm's own allocations are still reported.
// PCRE2 linked from its archive (cmake/system_libraries.cmake) has no
// library to name: its allocator's function names it there.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libpcre2-8.so\n"
         "leak:_pcre2_memctl_malloc_8\n";
}
#endif
