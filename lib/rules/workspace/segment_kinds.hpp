// The `seg_kind` values of work/segments.jsonl (spec partition.md): which
// account of the run a segment is. otm-partition writes them and every
// stage that tells segments apart reads them from here; the `literals` test
// (tests/literals/check_literals.sh) fails on a copy anywhere else.
#pragma once

namespace otm::workspace {

// A strategy's kind is this prefix and the ladder's milestone kind
// ("milestone-big", "milestone-mega").
inline constexpr char kMilestoneSegmentPrefix[] = "milestone-";
// ... of the ladder's `final`: a version kept without a new best by the
// milestone threshold (a milestone is never also `final`).
inline constexpr char kFinalMilestoneSegment[] = "milestone-final";
inline constexpr char kDeadendItemSegment[] = "deadend-item";
inline constexpr char kDeadendProseSegment[] = "deadend-prose";
inline constexpr char kCuratedPitfallSegment[] = "curated-pitfall";
inline constexpr char kFinalKernelSegment[] = "final-kernel";
inline constexpr char kMegaSnapshotSegment[] = "mega-snapshot";

} // namespace otm::workspace
