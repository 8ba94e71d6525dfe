// The best-so-far ratchet (spec ladder.md): which versions of a trace earn a
// strategy record (milestones), which reverted versions are mined as failed
// levers (dead-ends), and why every other version was set aside
// (rejections). Input: the rows of work/versions.jsonl in file order;
// thresholds from config::Config::ladder(). Departures from the reference
// (guards that actually guard, `final` limited to versions the ratchet
// accepted) are listed in docs/differences.md, "## Ladder".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "workspace/ladder_verdict.hpp"
#include "json/value.hpp"

namespace otm::ladder {

enum class Kind { Baseline, Milestone, Mega, Final };
std::string_view kind_name(Kind k); // "baseline", "milestone", "mega", "final"

struct Milestone {
  std::size_t row = 0; // index into the input rows
  std::string version;
  Kind kind = Kind::Milestone;
  // Improvement over the best-so-far in percent, round(x, 2); null for
  // baseline and final (spec semantics, as partition reads it).
  std::optional<double> improve_pct;
};

struct DeadEnd {
  std::size_t row = 0;
  std::string version;
};

struct Rejection {
  std::size_t row = 0;
  std::string version;
  std::string reason; // e.g. "under 1.5% (0.10%)"
};

// How one row was judged; one per input row, in input order. The ladder's
// rows carry it (annotate), which later stages read back typed.
using Judgement = workspace::LadderVerdict;

struct Result {
  std::vector<Milestone> milestones; // in visit order; a final, if any, last
  std::vector<DeadEnd> deadends;
  std::vector<Rejection> rejections; // in visit order
  std::vector<Judgement> judgements; // parallel to the input rows
  std::optional<double> best;        // the floor after the last version
};

// Runs the ratchet. Never throws on odd row contents: a non-numeric geomean
// is a rejection, a non-object row has no geomean and no commit.
Result select(const std::vector<json::Value> &rows, const config::LadderThresholds &t);

// The input rows with each judgement appended (`selection`, `reason`,
// `improve_pct`, `best_before_us`, `best_before_version`, `best_after_us`:
// LadderVerdict::write_into; see docs/tools/otm-ladder.md).
std::vector<json::Value> annotate(std::vector<json::Value> rows, const Result &r);
// The same on the rows themselves (otm-ladder: no copy of every row).
void annotate_in_place(std::vector<json::Value> &rows, const Result &r);

// A milestone row as partition uses it: the version row plus `kind` and
// `improve_pct`.
json::Value milestone_row(const std::vector<json::Value> &rows, const Milestone &m);

// Running minimum (report only, §5): (version, geomean) whenever a truthy
// positive geomean is strictly below every earlier one.
std::vector<std::pair<std::string, double>> running_minimum(const std::vector<json::Value> &rows);

// Report grouping of a reason: the greedy parenthesised part `\(.*\)`
// deleted and the rest trimmed ("under 1.5% (0.10%)" -> "under 1.5%").
std::string reason_group(std::string_view reason);

// (group, count) sorted by count descending, first appearance on ties.
std::vector<std::pair<std::string, std::size_t>> group_reasons(const std::vector<Rejection> &rejections);

} // namespace otm::ladder
