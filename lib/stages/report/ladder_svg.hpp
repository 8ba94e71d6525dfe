// The ladder as a picture: reports/<slug>/ladder.svg (issue 14). Geomean
// latency per version on a log scale, the best-so-far ratchet as a step
// line, every version marked by how the ladder judged it (baseline,
// milestone, mega, final, dead-end, or rejected by reason group), versions
// without a measurement on their own band (never drawn as zero), and a
// legend. Plain SVG 1.1 written here: no plotting dependency, no script, no
// external reference, so it renders the same in a browser, an image viewer
// and the review page. Deterministic: the same rows give the same bytes.
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "workspace/ladder_verdict.hpp"
#include "json/value.hpp"

namespace otm::report {

struct LadderPicture {
  std::string title;                   // e.g. the operator name
  std::vector<json::Value> rows;       // otm-ladder output (work/ladder.jsonl), file order
  config::LadderThresholds thresholds; // for the legend's wording
};

// How one version is marked: a stable category key (also the CSS class of
// its marker) and the legend's label for it.
struct MarkCategory {
  std::string key;   // "baseline", "milestone", "mega", "final", "deadend", "rejected-under-threshold",
                     // else "rejected-<reason group as a slug>"
  std::string label; // "milestone", "rejected: under 1.5%", ...
};
MarkCategory mark_category(const workspace::LadderVerdict &verdict);

// A row whose verdict has a field of another type is thrown (its Error).
std::string ladder_svg(const LadderPicture &picture);

} // namespace otm::report
