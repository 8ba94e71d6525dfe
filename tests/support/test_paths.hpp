// Where the tests find the build, the checkout and the real store, decided
// at run time in one place. The build's directories are compiled into one
// file only (test_paths.cpp): concatenating the macro's literal elsewhere
// let GCC 12 report false -Warray-bounds warnings that depended on the
// length of the checkout's path.
#pragma once

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include <catch2/catch.hpp>

namespace otm::testing {

// $OTM_BIN_DIR (ctest sets it), else the build's bin/.
const std::string &bin_dir();
// The checkout.
const std::string &source_dir();

// The real 847-record store: a gpu-wiki checkout holding kernel_wiki/,
// schema/ and opt-trace-profile/. $OTM_REAL_STORE when set, else
// ../shared/gpu-wiki beside the checkout; nullopt when neither exists.
std::optional<std::filesystem::path> real_store_dir();
// Whether a missing real store fails the tests instead of skipping them:
// $OTM_REQUIRE_REAL_STORE=1 (CI sets it), or $OTM_REAL_STORE set but wrong.
bool real_store_required();
// The one-line reason given when it is missing.
std::string real_store_missing();

// Why Makefile.pipeline cannot run from this build ("" when it can): make
// splits paths at spaces, so a checkout or build directory whose path holds
// one is refused by the Makefile (README.md, "Paths with spaces").
std::string make_unusable();

} // namespace otm::testing

// In a test that compares with the real store: declares `var` (the gpu-wiki
// directory), or ends the test, reported by ctest as skipped (the line
// matches the tests' SKIP_REGULAR_EXPRESSION), never as passed; fails it
// when the store is required.
#define OTM_REAL_STORE_OR_SKIP(var)                                                                                    \
  const auto var##_found = ::otm::testing::real_store_dir();                                                           \
  if (!var##_found) {                                                                                                  \
    if (::otm::testing::real_store_required()) FAIL(::otm::testing::real_store_missing());                             \
    std::cout << "OTM-SKIP: " << ::otm::testing::real_store_missing() << std::endl;                                    \
    return;                                                                                                            \
  }                                                                                                                    \
  const std::filesystem::path var = *var##_found

// In a test that runs Makefile.pipeline: ends the test, reported by ctest as
// skipped with the reason, when make cannot run from this checkout.
#define OTM_MAKE_OR_SKIP()                                                                                             \
  if (const std::string why = ::otm::testing::make_unusable(); !why.empty()) {                                         \
    std::cout << "OTM-SKIP: " << why << std::endl;                                                                     \
    return;                                                                                                            \
  }
