// The fields of a staged record (a clean-1.3 record under records/) that the
// read-side tools read back: otm-explain, the staging README, the quality
// signals, otm-review, the gates and the admission (issue 28: each read them
// field by field with string_or, a renamed field read as "" wherever it was
// read). The drafter writes the record whole; this is its reading, one field
// table for every reader.
//
//   auto v = store::RecordView::from_json(record).value(); // throws its Error
//   v.type, v.scope.dsl, v.version, v.diff_from->git_commit
//
// It lives in store/, not record/: its reading rule (workspace::FieldReader)
// is in workspace/, which record/ sits below.
#pragma once

#include <optional>
#include <string>

#include "error/result.hpp"
#include "json/value.hpp"

namespace otm::store {

struct RecordView {
  // Each is empty when the record has no such field (or it is null).
  std::optional<std::string> id, type;
  // level (operator, kernel, ...) and episode_key (the run episode the
  // record was drafted from): the gates and the admission read them.
  std::optional<std::string> level, episode_key;
  // retrieval.scope: what the record is filed under.
  struct Scope {
    std::optional<std::string> vendor, arch, product, dsl, operator_family;
  } scope;
  // evidence.raw: the trace, version and commit it was drafted from.
  std::optional<std::string> source_repo, version, git_commit;
  // evidence.raw.evidence_extra.diff_from / diff_to: the ends of the diff a
  // strategy quotes; empty when the record names no such end (no object).
  struct DiffEnd {
    std::optional<std::string> version, git_commit;
  };
  std::optional<DiffEnd> diff_from, diff_to;
  // worth.rank.tier and worth.gain.basis.
  std::optional<std::string> tier, gain_basis;
  // payload.implementation.snippet and .format: the code a strategy quotes
  // and how it is written ("unified-diff", "none", ...).
  std::optional<std::string> snippet, format;
  // payload.goal (the staging index's title), payload.mechanism (a
  // strategy's), payload.lesson, payload.attempted and payload.verdict (an
  // anti-strategy's) and payload.established_fact.mechanism (its cause).
  std::optional<std::string> goal, mechanism, lesson, attempted, verdict, fact_mechanism;
  // retrieval.generality.workload_family (recon groups the store by it) and
  // evidence.summary.bottleneck_evidence.basis ("profiler": a capture claim).
  std::optional<std::string> workload_family, bottleneck_basis;

  // A codec's reading: every field may be absent, but a field (or an object
  // on its path) of another type is an UnreadableInput Error naming it
  // ("a record's `evidence.raw.version` is a number, not a string or null").
  static Result<RecordView> from_json(const json::Value &record);
  // A page's reading of whatever is staged, a record its gates refused
  // included: the same fields, one of another type read as absent (as the
  // pages always showed it) instead of refusing the record.
  static RecordView shown(const json::Value &record);
};

} // namespace otm::store
