#include "ladder/verdict.hpp"

#include <optional>

#include "ladder/ladder.hpp"
#include "text/pyformat.hpp"
#include "workspace/ladder_verdict.hpp"

namespace otm::ladder {

namespace {

struct Point {
  std::string version;
  double geomean_us = 0;
};

// A row's geomean when the ratchet selected it as `kind` and it is a number.
std::optional<Point> selected(const json::Value &row, const workspace::LadderVerdict &verdict, Kind kind) {
  if (verdict.selection != kind_name(kind)) return std::nullopt;
  const auto &g = row.get("geomean_us");
  auto x = g.as_number();
  if (!x || g.is_bool() || *x <= 0) return std::nullopt;
  return Point{row.string_or("version"), *x};
}

std::string hardware(const workspace::TraceMeta &meta) {
  std::string out;
  for (const std::string *s : {&meta.vendor, &meta.arch, &meta.product})
    if (!s->empty()) out += (out.empty() ? "" : " ") + *s;
  return out.empty() ? "hardware the trace does not state" : out;
}

} // namespace

std::string ratchet_verdict(const std::vector<json::Value> &rows, const workspace::TraceMeta &meta) {
  std::optional<Point> baseline, last;
  std::size_t milestones = 0;
  const auto verdicts = workspace::read_ladder_verdicts(rows, "the ladder's rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    milestones += verdicts[i].accepted();
    if (!baseline) baseline = selected(rows[i], verdicts[i], Kind::Baseline);
    // The final when the ratchet named one, else its last accepted step.
    for (Kind k : {Kind::Milestone, Kind::Mega, Kind::Final})
      if (auto p = selected(rows[i], verdicts[i], k)) last = p;
  }
  const std::string over = " over " + std::to_string(rows.size()) + (rows.size() == 1 ? " version" : " versions") +
                           " and " + std::to_string(milestones) + (milestones == 1 ? " milestone" : " milestones") +
                           ", on " + hardware(meta) + ".";
  if (!baseline)
    return "**What the run achieved:** the best-so-far ratchet found no baseline with a measured geomean, so no "
           "speed-up can be stated;" +
           over;
  if (!last) last = baseline;
  return "**What the run achieved:** the best-so-far ratchet took the geomean from " +
         text::fixed(baseline->geomean_us, 2) + " us (`" + baseline->version + "`) to " +
         text::fixed(last->geomean_us, 2) + " us (`" + last->version + "`), " +
         text::fixed(baseline->geomean_us / last->geomean_us, 2) + "x faster," + over;
}

} // namespace otm::ladder
