// What a run achieved, first: one line from the best-so-far ratchet's
// annotated rows (work/ladder.jsonl), the baseline's and the final's geomean,
// the speed-up, over how many versions and milestones, on which hardware.
// recon.md and the staging README open with it. It is the ratchet's answer,
// not the running minimum (which a rejected version, an unexplained win, can
// set).
#pragma once

#include <string>
#include <vector>

#include "workspace/trace_meta.hpp"
#include "json/value.hpp"

namespace otm::ladder {

// `rows`: the ladder's annotated rows (`selection`, `geomean_us`, `version`);
// `meta`: work/meta.json's "meta" object (vendor, arch, product).
// A row whose verdict has a field of another type is thrown (its Error).
std::string ratchet_verdict(const std::vector<json::Value> &rows, const workspace::TraceMeta &meta);

} // namespace otm::ladder
