# libgit2, PCRE2, mbedcrypto and zlib, found once as one target,
# otm_system_libraries, that lib/support links (simdjson, RapidJSON and
# valijson come from their own CMake packages). It carries what to link;
# the compile definitions stay with lib/support (lib/CMakeLists.txt).
#
# Static archives by default (OTM_STATIC_DEPS): a shared libgit2 brings
# about twenty shared objects into every process (mbedTLS, libssh2 and
# OpenSSL's libcrypto, http_parser, zlib, Kerberos), and the dynamic loader
# spends more time on them than a `commit insert` spends on its work
# (docs/benchmarks.md, "issue 11: start-up"; docs/dependencies.md). Linked
# from the archives, only the code used is copied in and its symbols are
# bound at link time; their size is paid once, in the one executable every
# command is a name of (tools/CMakeLists.txt). Where an archive is missing,
# or the archives do not link and run together (another distribution's
# libgit2 built with other back ends), the shared libraries are used
# instead: a user's build never fails for this.
option(OTM_STATIC_DEPS "Link libgit2, PCRE2, mbedcrypto and libgit2's dependencies from their static archives where they link (faster start-up); shared libraries otherwise" ON)

find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
# mbedcrypto (SHA-256): Debian's libmbedtls-dev, a dependency of libgit2-dev,
# ships no pkg-config file.
find_path(MBEDTLS_INCLUDE_DIR mbedtls/sha256.h REQUIRED)
find_library(MBEDCRYPTO_LIBRARY mbedcrypto REQUIRED)
# zlib (the packs otm writes itself, lib/support/git/pack_writer.cpp):
# Debian's zlib1g-dev, a dependency of libgit2-dev, named by scripts/bootstrap.
find_package(ZLIB REQUIRED)

add_library(otm_system_libraries INTERFACE)
target_include_directories(otm_system_libraries SYSTEM INTERFACE ${LIBGIT2_INCLUDE_DIRS} ${PCRE2_INCLUDE_DIRS}
                                                                  ${MBEDTLS_INCLUDE_DIR})

# The archives libgit2 needs, in link order: its own pkg-config --static
# list, then that of libssh2, which Debian's libgit2.pc names as a library
# rather than a package (so pkg-config does not follow it to OpenSSL).
# GSSAPI (HTTP Negotiate authentication) is named by neither and Debian
# ships no archive of it: its shared object, present wherever libgit2's is,
# stays shared.
function(otm_find_static_deps out)
  set(names ${LIBGIT2_STATIC_LIBRARIES})
  if(ssh2 IN_LIST names)
    pkg_check_modules(OTM_SSH2 QUIET libssh2)
    list(APPEND names ${OTM_SSH2_STATIC_LIBRARIES})
  endif()
  # zlib: otm compresses the packs it writes itself (lib/support/git/pack_writer.cpp);
  # libgit2's list names it already where libgit2 links the system's zlib.
  list(APPEND names ${PCRE2_STATIC_LIBRARIES} mbedcrypto z)
  # Last occurrence wins: an archive must follow every archive that uses it.
  list(REVERSE names)
  list(REMOVE_DUPLICATES names)
  list(REVERSE names)
  set(libs "")
  foreach(name IN LISTS names)
    find_library(OTM_ARCHIVE_${name} NAMES lib${name}.a NO_CACHE)
    find_library(OTM_SHARED_${name} NAMES ${name} NO_CACHE)
    if(OTM_ARCHIVE_${name})
      list(APPEND libs "${OTM_ARCHIVE_${name}}")
    elseif(OTM_SHARED_${name})
      # No archive (librt, a libc stub): the shared one.
      list(APPEND libs "${OTM_SHARED_${name}}")
    elseif(NOT name STREQUAL "gpg-error")
      # Debian's libssh2.pc names libgpg-error, which its OpenSSL build never
      # calls: tolerated when absent, anything else missing means shared.
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  find_library(OTM_GSSAPI_LIBRARY NAMES gssapi_krb5 libgssapi_krb5.so.2 NO_CACHE)
  if(OTM_GSSAPI_LIBRARY)
    list(APPEND libs "${OTM_GSSAPI_LIBRARY}")
  endif()
  set(${out} "${libs}" PARENT_SCOPE)
endfunction()

set(OTM_STATIC_DEPS_LINKED OFF)
if(OTM_STATIC_DEPS)
  otm_find_static_deps(otm_static_libs)
  if(otm_static_libs)
    # Link and run a program that initialises libgit2 and calls PCRE2 and
    # mbedcrypto, with exactly these archives: only then are they used.
    include(CheckCXXSourceRuns)
    include(CMakePushCheckState)
    cmake_push_check_state(RESET)
    set(CMAKE_REQUIRED_QUIET ON)
    set(CMAKE_REQUIRED_INCLUDES ${LIBGIT2_INCLUDE_DIRS} ${PCRE2_INCLUDE_DIRS} ${MBEDTLS_INCLUDE_DIR})
    set(CMAKE_REQUIRED_DEFINITIONS -DPCRE2_CODE_UNIT_WIDTH=8)
    set(CMAKE_REQUIRED_LIBRARIES ${otm_static_libs})
    set(otm_static_probe [[
#include <git2.h>
#include <mbedtls/sha256.h>
#include <pcre2.h>
int main() {
  if (git_libgit2_init() < 1) return 1;
  int err = 0;
  PCRE2_SIZE off = 0;
  pcre2_code *re = pcre2_compile(reinterpret_cast<PCRE2_SPTR>("a+"), PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err, &off, nullptr);
  if (!re) return 1;
  pcre2_code_free(re);
  mbedtls_sha256_context sha;
  mbedtls_sha256_init(&sha);
  mbedtls_sha256_free(&sha);
  git_libgit2_shutdown();
  return 0;
}
]])
    # The result is cached under a name that carries the list and the probe,
    # so a changed system is checked again.
    string(MD5 otm_static_key "${otm_static_libs}${otm_static_probe}")
    check_cxx_source_runs("${otm_static_probe}" OTM_STATIC_DEPS_RUN_${otm_static_key})
    cmake_pop_check_state()
    if(OTM_STATIC_DEPS_RUN_${otm_static_key})
      set(OTM_STATIC_DEPS_LINKED ON)
    endif()
  endif()
  if(NOT OTM_STATIC_DEPS_LINKED)
    message(STATUS "otm: the static archives of libgit2 and its dependencies do not link here; "
                   "linking the shared libraries (slower start-up, same behaviour)")
  endif()
endif()

if(OTM_STATIC_DEPS_LINKED)
  message(STATUS "otm: libgit2, PCRE2 and mbedcrypto linked from their static archives")
  target_link_libraries(otm_system_libraries INTERFACE ${otm_static_libs})
else()
  target_link_libraries(otm_system_libraries INTERFACE PkgConfig::LIBGIT2 PkgConfig::PCRE2 ${MBEDCRYPTO_LIBRARY}
                                                        ZLIB::ZLIB)
endif()
