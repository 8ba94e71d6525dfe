// The anonymiser's self-test (spec scrubbing.md §8): shared by
// `otm-scrub --self-test` and the unit tests, so both run the same checks.
#pragma once

#include <string>
#include <vector>

namespace otm::scrub {

struct SelfTestReport {
  std::vector<std::string> passed, failed; // one line per check
  bool ok() const { return failed.empty(); }
};

SelfTestReport run_self_test();

} // namespace otm::scrub
