// One packet (spec packets.md): everything a distiller may read about one
// segment, scrubbed, plus the raw identifiers it may only copy into
// evidence.raw. Layout (key order is the contract the drafter and the gates
// read):
//   seg_id, record_type, seg_kind,
//   target {id, episode_key, output_dir, scope, workload_family, level, schema},
//   agent_facing {operator,
//                 what_the_run_said {change, commit_subject, commit_body,
//                                    category_hint, gate_verdict,
//                                    expected_impact, expected_impact_stated_by_steps,
//                                    causal_sentences, directions_taken_up},
//                 measurements,
//                 profiler {conclusion, ncu_measured_the_kernel_under_test,
//                           tool, evidence, conclusion_is_from_the_kernel_under_test},
//                 open_directions, pitfalls_recorded_here,
//                 [anti-strategy: the_failed_lever, how_it_was_fixed,
//                  split_instruction, established_fact_required]
//                 [strategy: builds_on, span {this_step_changes_running_code,
//                  earlier_kept_steps [{change}], [best_so_far_geomean_us,
//                  the_run_measured_this_step_from_us, ..._to_us]}],
//                 [reference-kernel: span {this_step_changes_running_code, ...,
//                  final_kernel {dsl, geomean_us}}],
//                 [diff_shows, diff_file | kernel_file, code_after_file,
//                  step_diff_file]},
//   provenance {source_repo, version, git_commit, ncu_dirs, report_dir,
//               shape_label_note, diff_from {version, git_commit},
//               diff_to {version, git_commit}, code_truncated},
//   evidence_chars, code_bytes
// (docs/tools/otm-packet.md describes every field.)
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "diff/barrier_removal.hpp"
#include "git/repository.hpp"
#include "packet/directions_taken_up.hpp"
#include "packet/kernel_code.hpp"
#include "packet/run_facts.hpp"
#include "record/causal_sentences.hpp"
#include "record/format_tags.hpp"
#include "record/leak_shapes.hpp"
#include "scrub/denylist.hpp"
#include "scrub/scrubber.hpp"
#include "workspace/packet_provenance.hpp"
#include "workspace/segment.hpp"
#include "workspace/trace_meta.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::packet {

// The sibling holding the kernel file after a diff's change
// (agent_facing.code_after_file): "<seg_id>.after" and the kernel file's
// extension (workspace::kernel_extension): "<seg_id>.after.py".
inline constexpr const char *kCodeAfterMark = ".after";
// The sibling holding a strategy's own step's change when its diff from the
// best-so-far spans earlier kept steps (agent_facing.step_diff_file).
inline constexpr const char *kStepDiffSuffix = ".step.diff";

// Size caps of the code file, in code points.
inline constexpr std::size_t kMaxDiffChars = 60000;
inline constexpr std::size_t kMaxKernelChars = 40000;

struct Context {
  workspace::TraceMeta meta;                 // the "meta" object of work/meta.json
  const git::Repository *repo = nullptr;     // the trace
  const VersionCommits *commits = nullptr;   // its commits by version
  const trace::TraceFiles *files = nullptr;  // its working tree (REPORT.md files, snapshots)
  const scrub::Denylist *denylist = nullptr; // may be null
  std::string schema = record::kStoreSchemaTag;
  record::CausalRule causal;                   // what_the_run_said.causal_sentences (default: none)
  DirectionRule directions;                    // what_the_run_said.directions_taken_up (default: none)
  NoiseRule noise;                             // the run's noise band (the `noise` section)
  std::optional<long> sm_count;                // the product's SMs (`launch_grid.sm_count`); nullopt: unknown
  std::optional<long> shared_memory_per_block; // bytes (`device_limits`); nullopt: unknown
  diff::BarrierRemovalRule barriers;           // `barrier_removal`: a reference kernel's lineage
  std::map<std::string, std::vector<std::string>> axis_aliases; // `shape_axes.aliases` (config::Config)
  DiffCache *diffs = nullptr;                                   // shared by the packets of one run; may be null
  const RunFacts *facts = nullptr;                              // the run's steps (spans, repeated texts); may be null
  scrub::ScrubMemo *scrub_memo = nullptr; // one thread's (ScrubMemo is not thread-safe); may be null
};

struct Built {
  std::string seg_id;
  json::Value packet;                     // the packet, built once
  std::string text;                       // it as written to <seg_id>.json (pretty, final newline)
  workspace::PacketProvenance provenance; // packet's `provenance`, typed
  std::string code_name;                  // "<seg_id>.diff" / "<seg_id>.py"; empty when none
  std::string code;                       // scrubbed, capped
  // Further siblings (name, content): the kernel after the change.
  std::vector<std::pair<std::string, std::string>> siblings;
  std::vector<record::Leak> leaks; // pre-flight hits in the agent-facing layer
  // What the summary line repeats of the packet.
  std::string record_type;
  json::Value id; // target.id
  std::size_t evidence_chars = 0, code_bytes = 0;
};

// `row` is the segment's version row (a default one when absent); `taken_up` the
// earlier open directions its version took up (directions_taken_up()).
// The packet is built as a value and rendered to Built::text once.
Built build_packet(const workspace::Segment &segment, const workspace::VersionRow &row, const Context &ctx,
                   const std::vector<json::Value> &taken_up = {});

// §4 evidence text: scalar values of `agent_facing` depth-first in key
// order (nulls skipped, Python str), then `code` when non-empty, joined
// with "\n".
std::string evidence_text(const json::Value &agent_facing, const std::string &code);

// §5: the strict leak scan of the agent-facing layer (no code file).
std::vector<record::Leak> preflight(const json::Value &agent_facing, const scrub::Denylist *denylist);

// Cuts `code` to at most `cap` code points at the last line end before the
// cap (a cut line or hunk could never pass the verbatim gate). Returns
// whether it cut.
bool cap_at_line(std::string &code, std::size_t cap);

} // namespace otm::packet
