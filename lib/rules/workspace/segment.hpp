// One row of work/segments.jsonl (spec partition.md): a record-to-be, as a
// typed value (issue 28). otm-partition builds each segment as a Segment
// and writes it with to_json; a reader reads one with from_json.
//
//   auto seg = workspace::Segment::from_json(v).value(); // throws its Error
//   seg.record_type, seg.version, seg.measured_against
//
// The key order depends on the segment's kind, as otm-partition has always
// built them: the common fields, then a strategy's, an account of a failed
// lever's (a curated pitfall's in its own order) or a reference kernel's,
// then `id` and `episode_key`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error/result.hpp"
#include "json/value.hpp"

namespace otm::workspace {

// A step a segment names by version and commit: `measured_against`,
// `final_kernel`, `builds_on`, an entry of `later_in_its_dsl`. Kept as JSON
// in Segment (partition's shapes vary); read through this so each reader
// does not pick the members out again. A member is nullopt when absent or
// not a string (a null `measured_against` names nothing).
struct StepRef {
  std::optional<std::string> version, sha;
  // Any value: one that is no object names nothing.
  static StepRef of(const json::Value &step);
};

struct Segment {
  // The version's and the trace's (every segment).
  std::string version;
  std::int64_t n = 0;
  std::optional<std::string> sha, parent, date; // null for a version without a commit
  std::string dsl, operator_slug, workload_family, vendor, arch, product, source_repo;
  bool comparable = true;
  std::vector<std::string> ncu_dirs, report_dirs;

  // What it is (every segment).
  std::string seg_id, record_type, seg_kind, marker, technique;
  std::int64_t disc = 0;
  std::string id, episode_key; // allocated last

  // A strategy's: the ladder's numbers as it wrote them, its milestone
  // kind, the step it builds on.
  json::Value improve_pct, geomean_us;
  std::string kind;
  json::Value builds_on;
  // Where its gain (or an account's attempt) is measured from: null when
  // the ladder named no version; absent from a final kernel.
  std::optional<json::Value> measured_against;
  // A strategy's: the run's reverted tries of the same change before it
  // ([{version, sha}]) and the kept steps after the last of them ([{version,
  // change}]); absent when there were none.
  std::optional<json::Value> reverted_tries_before, kept_since_last_try;

  // An account of a failed lever's (anti-strategy).
  std::optional<std::string> deadend_text, pitfall_fix;
  std::string split_by, fact_precheck;
  json::Value tried_in_the_run, occurrences, lever_settings, kept_in_the_run;
  // The kept steps of the run that state another value of the same lever
  // ([{version, sha, setting}]): what of the lever the run built and kept.
  json::Value kept_with_other_settings;

  // A reference kernel's; final_kernel and later_in_its_dsl only for a
  // milestone's snapshot: the later milestones the ladder accepted in the
  // snapshot's own DSL, [{version, sha}] in row order (a kernel one of them
  // beats is a step on the way, kit15).
  std::string kernel_file;
  std::optional<json::Value> final_kernel, later_in_its_dsl;

  // What a later stage appended, in order.
  json::Value later = json::Value::object();

  // `version`, `seg_id` and `record_type` must be strings; any other field
  // may be absent (it reads as its default), but a field of another type is
  // an UnreadableInput Error naming it.
  static Result<Segment> from_json(const json::Value &segment);

  // The steps it names, read from the JSON kept above (each names nothing
  // when absent): where its gain or attempt is measured from, the run's
  // final kernel (a milestone snapshot's), the milestone it builds on.
  StepRef measured_from() const;
  StepRef final_kernel_at() const;
  StepRef builds_on_step() const;
  // The `version` of each entry of a list kept above (`occurrences`,
  // `later_in_its_dsl`, `kept_with_other_settings`), "" for an entry that
  // names none; empty when it is no list.
  static std::vector<std::string> versions_in(const json::Value &list);
  // In otm-partition's order for the segment's kind; `later` last.
  json::Value to_json() const;
};

// Segments already parsed (work/segments.jsonl, partition's result), typed;
// the first that is no segment is thrown, naming `source` and its row.
std::vector<Segment> read_segments(const std::vector<json::Value> &segments, std::string_view source);

} // namespace otm::workspace
