// How the best-so-far ratchet judged one version (spec ladder.md): the
// fields otm-ladder appends to each row of work/ladder.jsonl, as a typed
// value (issue 28: read back field by field, a renamed field failed at run
// time in whichever stage read it). The ladder builds one per row and
// writes it with write_into; every stage after it (partition, recon, the
// reports, otm-explain) reads it with from_json, from a ladder row or from a
// VersionRow's `later`.
//
//   auto v = workspace::LadderVerdict::from_json(row).value(); // throws its Error
//   if (v.accepted()) ... v.selection, v.improve_pct, v.best_before_version
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error/result.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::workspace {

struct LadderVerdict {
  // baseline|milestone|mega|final|deadend|rejected ("" when a row has none).
  std::string selection;
  std::optional<std::string> reason;    // the rejection reason (kept for a final)
  std::optional<double> improve_pct;    // vs the floor it was judged against, round 2
  std::optional<double> best_before_us; // that floor; null when not compared
  // The version holding that floor: the step a gain is measured against,
  // whose code a strategy's diff starts from (docs/differences.md).
  std::optional<std::string> best_before_version;
  // The floor after this row was judged (null before the first baseline):
  // the ratchet's state, which the ladder picture draws as its step line.
  std::optional<double> best_after_us;

  // Taken as a step of the ratchet: baseline, milestone, mega or final.
  bool accepted() const {
    return selection == "baseline" || selection == "milestone" || selection == "mega" || selection == "final";
  }

  // The verdict of a ladder row (other members are the version row's and
  // are not read). Every field may be absent (it reads as its default: a
  // hand-written row carries what it tests), but a field of another type is
  // an UnreadableInput Error naming it.
  static Result<LadderVerdict> from_json(const json::Value &row);
  // The same, from what a VersionRow kept of a ladder row (its `later`).
  static Result<LadderVerdict> of(const VersionRow &row);
  // Sets the six fields on `row` (an object) in the order otm-ladder has
  // always appended them, every one written (null when absent).
  void write_into(json::Value &row) const;
};

// The verdicts of ladder rows already parsed, in order; the first row that
// holds no verdict is thrown, naming `source` and its row.
std::vector<LadderVerdict> read_ladder_verdicts(const std::vector<json::Value> &rows, std::string_view source);

} // namespace otm::workspace
