// The extractive drafter (otm-draft): packet → one record, or a refusal
// naming the field the packet is too thin to fill. It only quotes what the
// packet holds (spec distill.md §2–§5) and needs no model. The full rule
// set is in docs/distill-brief.md ("What otm-draft does").
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "diff/barrier_removal.hpp"
#include "diff/function_swap.hpp"
#include "distill/cache_level_claim.hpp"
#include "distill/cross_warp_claim.hpp"
#include "distill/direction_claim.hpp"
#include "distill/dram_cause.hpp"
#include "distill/every_shape_claim.hpp"
#include "distill/grid_cause.hpp"
#include "distill/low_precision_sum_claim.hpp"
#include "distill/operand_reuse.hpp"
#include "distill/packet.hpp"
#include "distill/refusal.hpp"
#include "distill/removed_call_claim.hpp"
#include "distill/retrieval_terms.hpp"
#include "distill/single_pass_claim.hpp"
#include "distill/tile_claim.hpp"
#include "distill/warpgroup_claim.hpp"
#include "record/causal_sentences.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct Draft {
  std::optional<json::Value> record;
  std::optional<DraftRefusal> refusal;
  // Fields written as a gap (empty, null or a stated default) because the
  // packet is too thin; the record is still written.
  std::vector<std::string> thin;
};

// The configuration the drafter reads: the causal-sentence rule (for a
// mechanism stated in the change text itself), the retrieval vocabulary
// (levers and symptoms), the reference-kernel size limit, and when a text is a template default rather than
// a step's own (the `boilerplate` section).
// How an anti-strategy's lesson introduces the run's advice (the fix it
// names): the drafter writes it, otm-draft's run reads it back.
inline constexpr std::string_view kLessonAdvice = " Instead: ";

struct DraftRules {
  record::CausalRule causal;
  RetrievalTerms retrieval;
  // An expected impact that this many steps of the run state is the
  // producer's template default, never a step's mechanism.
  std::size_t template_min_steps = 3;
  // A mechanism that more than this share of a run's strategies would carry
  // (and more than one) is not specific to any of them (draft_into_store).
  double max_mechanism_share = 0.1;
  // Mechanism texts (normalised) a run found shared too widely: skipped as
  // sources, so each record falls back to its next own source.
  std::vector<std::string> excluded_mechanisms;
  // limits.max_reference_kernel_lines: the longest reference kernel (its
  // snippet and dispatch_snippet, non-blank lines) a record quotes.
  std::size_t max_reference_kernel_lines = config::Limits{}.max_reference_kernel_lines;
  // From the `noise` section (packet::NoiseRule, its one reader): a
  // geomean gain shown on fewer shapes, the rest inside the run's band, is
  // those shapes'; an account of a lever that gained nothing is borne out
  // by an attempt within no_effect_max_pct of the code it was tried on
  // (within the run's band, when known).
  double gain_min_shape_share = 0.5;
  double no_effect_max_pct = 1.0;
  // A span's gain is its last step's only when the run's own subject
  // measured at least this share of it on that step.
  double span_own_gain_min_share = 0.5;
  // A gain under this multiple of the run's band is said to be close to
  // the noise (noise.close_gain_band_multiple).
  double close_gain_band_multiple = 1.25;
  // Without a band, a gain under this many percent is said to be unreadable
  // against the run's noise (noise.small_gain_without_band_pct).
  double small_gain_without_band_pct = 2.0;
  // The `launch_grid` section: a cause about the grid checked against each
  // shape's program count.
  GridCauseRule grid_cause;
  // The `shape_claims` section: a cause claiming every shape checked
  // against each shape's measurement.
  EveryShapeRule every_shape;
  // The `dram_claims` section: a cause about DRAM traffic checked against
  // the captures before and after the change.
  DramCauseRule dram_cause;
  // The `cache_level_claims` section: a cause naming a cache level checked
  // against the cache qualifiers the change adds.
  CacheLevelRule cache_level;
  // The `removed_call_claims` section: a cause saying the change removes
  // calls of a function checked against the lines the diff removes.
  RemovedCallRule removed_call;
  // The `operand_reuse` section: a cause saying an operand is loaded once
  // for many rows checked against the kernel's row loop.
  OperandReuseRule operand_reuse;
  // The `tile_claims` section: a tile size the mechanism states checked
  // against the tile sizes the kernel sets.
  TileClaimRule tile_claim;
  // The `direction_claims` section: which way a cause says a setting moved,
  // checked against the way the change text moved it.
  DirectionClaimRule direction_claim;
  // The `barrier_removal` section: a kept step that removes a barrier is
  // no technique to copy (barrier_removal.hpp).
  diff::BarrierRemovalRule barrier_removal;
  // The `function_swap` section: an attempt or change that computes another
  // function than the code it was tried on (function_swap.hpp).
  diff::FunctionSwapRule function_swap;
  // The `cross_warp_claims` section: a cause about data moving between
  // warps checked against CUDA source whose warps never exchange data.
  CrossWarpClaimRule cross_warp;
  // The `low_precision_sums` section: a cause saying the sums are kept in
  // bf16/fp16 checked against the kernel's running sums.
  LowPrecisionSumRule low_precision_sum;
  // The `single_pass_claims` section: a cause saying the data is read once
  // checked against a kernel that reads one pointer in two loops.
  SinglePassRule single_pass;
  // The `warpgroup_claims` section: a cause about warpgroups checked
  // against a target without them or a kernel whose MMA one thread issues.
  WarpgroupRule warpgroup;
  // `lineage.restores`: a kept step's change text that returns to earlier
  // code ("Restore an earlier step kernel: ...") names no technique the
  // code builds on (round 14: a reference kernel said to build on one).
  std::shared_ptr<const text::Regex> restores;
  // `device_limits.products_without_fp8_matmul`: where a dot on FP8
  // operands cannot compile.
  std::set<std::string> products_without_fp8_matmul;
  // The `failure_accounts` section: words by which a run puts a failure on
  // a defect of the attempt's code ("implementation bug", "off by one"),
  // which then is not the lever's; and a fix that only says the run went
  // back ("Reverted to an earlier step."), which is no advice.
  std::shared_ptr<const text::Regex> code_defect;
  std::shared_ptr<const text::Regex> revert_only_fix;
  // A cause that argues for taking the lever out, and an attempt that takes
  // it out (`failure_accounts.argues_for_taking_out`, `.takes_out`).
  std::shared_ptr<const text::Regex> argues_for_taking_out, takes_out;
  // `failure_accounts.shared_memory_footprint`: the code names of the
  // constants a kernel's shared-memory footprint is sized by (tile edges,
  // stages: `BM`, `kStages`): the settings a shared-memory overflow is
  // the fact of (kit 50, W09: `VEC`, `THREADS` and `SPLIT` shown instead).
  std::shared_ptr<const text::Regex> shared_memory_footprint;
  // From the configuration (defaults merged with the override); a malformed
  // section is an otm::Error (kind Usage) naming it.
  static DraftRules from_config(const config::Config &config);
  // The built-in configuration's rules (built once).
  static const DraftRules &defaults();
};

// Deterministic: the same packet and rules give the same record, byte for byte.
Draft draft_record(const Packet &packet, const DraftRules &rules);
inline Draft draft_record(const Packet &packet) { return draft_record(packet, DraftRules::defaults()); }

} // namespace otm::distill
