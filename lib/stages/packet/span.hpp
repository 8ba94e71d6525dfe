// What a record's diff spans (issue 25), read from the trace's commits:
// for a strategy, the kept steps between the best-so-far its gain is
// measured against and its own step, whether its own step's change runs,
// and what its code builds on; for a reference kernel, whether its step's
// change runs and whether its code runs differently from the best-so-far
// before it and from the final kernel. A kept step's own change is read
// from the code it was made on (RunFacts::code_made_on).
#pragma once

#include <optional>
#include <vector>

#include "packet/kernel_code.hpp"
#include "packet/packet.hpp"
#include "scrub/scrubber.hpp"
#include "workspace/segment.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::packet {

// A strategy's span: the kept steps between the best-so-far its gain is
// measured against and its own step whose own change runs (their code is
// in the strategy's diff too), and whether its own step's change runs at
// all; a reference kernel's comparisons.
struct Span {
  std::vector<const workspace::VersionRow *> earlier;
  std::optional<KernelDiff> own; // this step's own change, when the diff spans earlier steps
  bool this_step_runs = true;
  // A milestone snapshot's code against the best-so-far its jump is
  // measured against: nullopt when the segment names none.
  std::optional<bool> differs_from_measured_against;
  // ... and against the final kernel's code.
  std::optional<bool> differs_from_final_kernel;
  // What a strategy's code builds on, when it is not its previous
  // milestone's change: the change of the step its diff starts from (a kept
  // step under the milestone threshold), or of the last kept step before it
  // whose own change runs (the milestone was a re-measurement).
  std::optional<json::Value> builds_on_description;
  std::string builds_on_version; // whose change that is (for explain)
  // The record's lineage: the kept steps that passed their correctness
  // check and whose own change runs, oldest first: for a strategy, through
  // the step its diff starts from; for a reference kernel, up to its own
  // step (the schema's trace.builds_on and techniques_applied_before come
  // from their changes).
  std::vector<const workspace::VersionRow *> lineage;
  // A reference kernel's: the first step of its lineage, or its own, whose
  // own change removes a barrier (diff::BarrierRemovalRule), and the
  // barrier line it removes.
  const workspace::VersionRow *barrier_removed_by = nullptr;
  std::string barrier_removal;
  // A strategy's: the run's reverted tries of its change before it, in run
  // order (tries_of_this_change: by the settings their words state or the
  // edits their code makes).
  std::vector<std::string> reverted_tries;
  // The run's final kernel's: the kept steps after it (none set a new best)
  // that passed their check and whose own change runs, oldest first: the
  // kernel the run ended with is not the one quoted (kit 32, U22).
  std::vector<const workspace::VersionRow *> kept_after;
  // The same for kept steps after it with no step record (a memory file
  // missing or unreadable) whose change is in the code the run ended with:
  // whether one set a new best is not known (kit 48, U24: v171 "8 warps
  // (was 4)", the run's restored best, left out and the kernel before it
  // quoted as the run's).
  std::vector<const workspace::VersionRow *> kept_after_unmeasured;
};
// Empty (this step runs, nothing spanned) without a repository.
Span span_of(const workspace::Segment &seg, const Context &ctx);

// Whether a version's own change, from the code it was made on, changes a
// line that runs: a kept step whose commit only moved a constant nothing
// reads (`_SWEEP_BLOCK_S = 4` under the subject "BLOCK_S 8->4") kept no
// setting of any lever (kit 30, S33 and S42). True without a repository
// (nothing can tell).
bool own_change_runs(const Context &ctx, const std::string &version);

// The running lines the own change of `version` (the step a strategy
// builds on) removed and added, {removed: [..], added: [..]} scrubbed by
// `s`, when they are 1-3 short lines per side and `after` (the kernel after
// the strategy) holds every added one; null otherwise (kit 54, Q09:
// "flash-decoding splits 16->32" for `GROUP_SIZE_M = 16` -> `32`).
json::Value running_change_of(const Context &ctx, const std::string &version, const std::string &after,
                              scrub::Scrubber &s);

} // namespace otm::packet
