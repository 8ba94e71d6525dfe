// The admission gate's actions (spec wiki-gate.md §4 and the auto policy).
// Each runs with the store's exclusive lock held by the caller (commit.hpp)
// and changes records/ only through StoreCommit, so it either happens
// completely or not at all.
#pragma once

#include "admission/commit_types.hpp"
#include "admission/match.hpp"

namespace otm::admission {

// A new record at the path derived from its scope and id; the id must not
// exist in the index (base or journal) or as a file at that path (an identical
// record already at its place counts as done, so a re-run after a crash
// between the store write and the merged marker succeeds).
Outcome insert_record(const CommitRequest &req);

// Counts the incoming record as an independent confirmation of the target,
// once per (target, incoming) pair; re-ranks the target and its index entry.
Outcome confirm_record(const CommitRequest &req);

// Queues a direction contradiction for a human in <live>/conflicts/.
Outcome flag_conflict(const CommitRequest &req);

// The unattended policy's decision (see docs/admission.md "auto").
struct AutoDecision {
  std::string action; // insert / confirm / conflict
  std::string target; // for confirm / conflict
  std::string reason;
};
AutoDecision decide_auto(const json::Value &incoming, const MatchResult &match);

// True when two records point in opposite directions: a negative (anti-
// strategy, or a gain below zero) against a positive (a gain above zero, or a
// strategy without a number). A difference in magnitude is not one.
bool directions_contradict(const json::Value &a, const json::Value &b);

} // namespace otm::admission
