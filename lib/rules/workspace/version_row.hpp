// One row of work/versions.jsonl (spec trace-format.md §9.1) as a typed
// value (issue 28: a field read back by hand with string_or fails at run
// time, in whichever stage reads a renamed field). otm-ingest writes every
// row with to_json; the stages after it (the ladder, partition, recon, the
// reports, otm-explain) read one with from_json and use its fields. The
// ladder's rows (work/ladder.jsonl) are these rows with its judgement
// appended, which a reader finds in `later`.
//
//   auto row = workspace::VersionRow::from_json(v).value(); // throws its Error
//   if (row.has_commit && !row.reverted) ... row.subject, row.geomean()
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error/result.hpp"
#include "json/value.hpp"

namespace otm::workspace {

struct VersionRow {
  // Always written.
  std::string version; // "v3"
  std::int64_t n = 0;  // its number, the rows' order
  bool has_commit = false, has_memory = false;
  std::string dsl; // of kernel.py in its commit, else the configured one
  std::vector<std::string> profile_dirs, ncu_usable_dirs, report_dirs;

  // Its commit: written when has_commit (§2.2: the subject's grammar).
  std::string sha;
  std::optional<std::string> parent; // null for a root commit
  std::string date, subject, body;
  bool reverted = false;
  std::optional<double> subject_before_us, subject_after_us, subject_pct, subject_baseline_us;
  std::optional<std::string> deadend_blob;
  std::optional<std::vector<std::string>> deadend_items;
  std::optional<std::int64_t> deadend_streak;
  std::optional<std::string> next_direction;
  // The subject's change after its verdict and figures (parse_commit_message).
  std::optional<std::string> stated_change;
  // The subjects of the commits that name no version made since the
  // version commit before this one, oldest first ("harness: flush L2
  // between iterations"): what the run changed around its kernel here.
  std::vector<std::string> other_commits_before;

  // Its step record's §3.1 fields: written when has_memory. The numbers a
  // step record states are kept as it wrote them (an integer stays one,
  // and a wrong type is the ladder's to judge), the sections verbatim.
  std::string memory_file;
  json::Value geomean_us, by_shape, arith_mean_us, speedup_vs_ref;
  std::optional<std::string> correctness_status;
  json::Value max_abs_err, max_rel_err;
  std::optional<std::string> gate_result, gate_failure, action_category, action_description, expected_impact;
  json::Value git_commit_hash, open_directions, pitfalls, search_log, profile_evidence;
  std::optional<std::string> geomean_source; // "latency_us_geomean", "latency_us" or null

  // What a later stage appended (the ladder's judgement), in order.
  json::Value later = json::Value::object();

  // The geomean when it is a number.
  std::optional<double> geomean() const { return geomean_us.as_number(); }

  // `version` must be a string; every other field may be absent (it reads
  // as its default: hand-written rows carry what they test), but a field of
  // another type is an UnreadableInput Error naming it.
  static Result<VersionRow> from_json(const json::Value &row);
  // This row with `members` read over it, as from_json reads them
  // (otm-ingest: a step record's §3.1 fields).
  Result<VersionRow> with_members(const json::Object &members) const;
  // One line of text; `source` names it in an error ("work/versions.jsonl:3").
  static Result<VersionRow> parse(std::string_view line, std::string_view source);
  // In the order otm-ingest has always written them; `later` last.
  json::Value to_json() const;
};

// Rows already parsed (work/versions.jsonl, work/ladder.jsonl), typed; the
// first that is no version row is thrown, naming `source` and its row.
std::vector<VersionRow> read_version_rows(const std::vector<json::Value> &rows, std::string_view source);

} // namespace otm::workspace
