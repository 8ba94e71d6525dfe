// The hostile shapes of a stranger's trace (issue 25): what a generated
// trace holds when `--hostile` asks for them. Each is written as a real
// producer would, and each version that shows one says so in the manifest
// (`hostile`), with the ground truth a miner is measured against.
//
//  invisible-code        kept steps with a clear gain whose diff changes only
//                        a module constant nothing reads (`_TUNE_ID = N` under
//                        a comment repeating the claim), only a comment that
//                        names a real lever, or a helper nothing calls;
//  renamed-levers        Triton/Gluon tiles named BLOCK_N from v1 while the
//                        prose says BLOCK_SIZE; steps whose prose says
//                        BLOCK_SIZE / warps / stages / vec4 while the code
//                        changes BLOCK_N (THREADS) / num_warps / num_stages /
//                        max_contiguous, BlockedLayout, VEC and float4, with a
//                        comment repeating the claim hunks away from the change;
//  template-impact       one expected_impact sentence in every step record,
//                        now and then a step-specific one;
//  repeated-pitfalls     one dead-end retried with the same words and pitfall,
//                        and earlier pitfalls repeated in later step records;
//  milestone-span        two kept steps that measure slower (an eviction hint,
//                        a variance rewrite), then a milestone whose claim
//                        ("weight tile kept in registers") is in no code: its
//                        diff from the best-so-far is the two earlier steps';
//  contradicted-pitfalls a passing step whose pitfall claims an accuracy
//                        failure; a lever recorded as failing ("two rows per
//                        program fails") that a later step keeps as a win;
//  misleading-reverts    list dead-ends naming parameter levers the attempt
//                        does not hold, a revert whose diff is a comment, and
//                        a restoration that differs from the best-so-far only
//                        by a bumped `_TUNE_ID`;
//  quoted-versions       kernel comments and docstrings quoting an earlier
//                        version ("see v12's note"), captures in v<N>_ncu_full/
//                        whose reports cite their own and the previous capture.
#pragma once

#include <string>
#include <vector>

#include "tracegen/trace_options.hpp"

namespace otm::tracegen {

// The option name of a shape ("invisible-code", ...).
const char *hostile_shape_name(HostileShape s);
// Every shape, in the order above.
const std::vector<HostileShape> &all_hostile_shapes();
// "all", or option names separated by commas (order and repeats do not
// matter); throws std::invalid_argument naming an unknown name.
std::vector<HostileShape> parse_hostile_shapes(const std::string &list);

} // namespace otm::tracegen
