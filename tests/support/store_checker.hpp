// The store's own checker (issue 26): check_kernel_wiki.py, the clean-1.3
// store's validator that every other reader and writer of a live store
// trusts, shipped unchanged beside the real store
// (<gpu-wiki>/tools/check_kernel_wiki.py; never copied into the project).
// A test that writes a live store runs it on the result. It needs the real
// store's directory (tests/support/test_paths.hpp: OTM_REAL_STORE, else
// ../shared/gpu-wiki) and python3 with jsonschema (Debian's
// python3-jsonschema; without it the checker skips its schema gate, which
// must not pass for a check). Missing either, the test is reported skipped
// with the reason — a failure when OTM_REQUIRE_REAL_STORE=1 (CI), the same
// mechanism as the real-store tests.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "process.hpp"
#include "test_paths.hpp"

namespace otm::testing {

// The checker, when it can run here; nullopt otherwise.
std::optional<std::filesystem::path> store_checker();
// Why it cannot (one line).
std::string store_checker_missing();
// `python3 CHECKER --out STORE_ROOT --full`.
testsupport::RunResult run_store_checker(const std::filesystem::path &checker, const std::filesystem::path &store_root);

} // namespace otm::testing

// Declares `var` (the checker), or ends the test as skipped (failed when
// the real store is required), like OTM_REAL_STORE_OR_SKIP.
#define OTM_STORE_CHECKER_OR_SKIP(var)                                                                                 \
  const auto var##_found = ::otm::testing::store_checker();                                                            \
  if (!var##_found) {                                                                                                  \
    if (::otm::testing::real_store_required()) FAIL(::otm::testing::store_checker_missing());                          \
    std::cout << "OTM-SKIP: " << ::otm::testing::store_checker_missing() << std::endl;                                 \
    return;                                                                                                            \
  }                                                                                                                    \
  const std::filesystem::path var = *var##_found

// The checker passes on `store` (exit 0), its report shown when not.
#define CHECK_STORE_CHECKER_PASSES(checker, store)                                                                     \
  do {                                                                                                                 \
    const auto otm_checked_ = ::otm::testing::run_store_checker(checker, store);                                       \
    INFO("check_kernel_wiki.py --out " << (store).string() << " --full:\n" << otm_checked_.out << otm_checked_.err);   \
    CHECK(otm_checked_.code == 0);                                                                                     \
  } while (0)

// In the middle of a test that goes on afterwards: the checker passes on
// `store` when it can run; otherwise the test is reported skipped with the
// reason (failed when the real store is required) once it ends.
#define CHECK_STORE_CHECKER_PASSES_IF_HERE(store)                                                                      \
  do {                                                                                                                 \
    if (const auto otm_checker_ = ::otm::testing::store_checker()) {                                                   \
      CHECK_STORE_CHECKER_PASSES(*otm_checker_, store);                                                                \
    } else {                                                                                                           \
      if (::otm::testing::real_store_required()) FAIL(::otm::testing::store_checker_missing());                        \
      std::cout << "OTM-SKIP: " << ::otm::testing::store_checker_missing() << std::endl;                               \
    }                                                                                                                  \
  } while (0)
