// The ratchet's self-test (spec ladder.md §6): a synthetic non-monotonic
// series whose outcome is pinned. Shared by `otm-ladder --self-test` and the
// unit tests, so both check the same series.
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "json/value.hpp"

namespace otm::ladder {

// v1..v9 of the spec's table: has_commit true, sha = 40-hex rendering of n,
// dsl "triton".
std::vector<json::Value> self_test_rows();

struct SelfTestReport {
  std::vector<std::string> passed, failed; // one line per check
  std::string header;                      // states the thresholds used
  bool ok() const { return failed.empty(); }
};

// Runs the series under `t` and checks every pinned outcome.
SelfTestReport run_self_test(const config::LadderThresholds &t);

} // namespace otm::ladder
