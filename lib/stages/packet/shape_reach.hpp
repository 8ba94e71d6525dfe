// Which benchmarked shapes a packet's diff reaches (issue 25, round 7): a
// change confined to one branch of the kernel runs only for the shapes
// whose launch takes that branch. Read with code::shapes_running_changed_code
// from the kernel file at the two ends of the diff and the trace's workload.jsonl
// (each line's `shape_id` or `uuid`, or its axes spelled out as
// "M1_N4096": the key of a step record's `latency_us_by_shape`, and its
// `axes`). With the product's SM count
// (Context::sm_count), also how many programs each shape's launch starts
// before and after (code::programs_per_shape): what a cause about the grid
// ("fill the SMs", "amortise the launch over rows") is checked against.
#pragma once

#include <map>
#include <string>

#include "code/shape_paths.hpp"
#include "packet/kernel_code.hpp"
#include "packet/packet.hpp"
#include "workspace/segment.hpp"
#include "json/value.hpp"

namespace otm::packet {

// By workload key: whether that shape runs code the diff changed, and its
// program counts; a key the reading cannot decide is absent. Read from the
// commit the segment is measured against to the diff's end (so the
// per-shape changes and the reach compare the same two kernels, also for
// a failed attempt whose diff starts at the code it was made on).
struct ShapeReach {
  std::map<std::string, bool> runs_changed;
  std::map<std::string, code::ProgramCounts> programs;
  // The shapes the kernel the record presents (the strategy's kernel after
  // its change, the reference kernel) cannot compute: a loop's last step
  // reads past the end (code::unmasked_tails). By the shape's axes.
  std::map<std::string, code::UnmaskedTail> reads_past_the_end;
  // ... or cannot launch: its shared memory exceeds the product's limit
  // per block (code::shared_memory_per_shape, Context::shared_memory_per_block).
  std::map<std::string, code::SharedMemoryUse> exceeds_shared_memory;
  // By workload key: the shape's axes, so a per-shape change says which
  // shape it is (a gain on the M=4 shapes only is a regime, not noise).
  std::map<std::string, code::ShapeAxes::Values> axes;
};
// `axes` whenever the workload reads; the rest only for a diff (nullptr:
// none) of a segment measured against a commit.
ShapeReach shapes_reached(const KernelDiff *diff, const workspace::Segment &segment, const Context &ctx);

// Fills `reach.reads_past_the_end` and `reach.exceeds_shared_memory` for
// the kernel file `path` at `commit`: the kernel a record presents.
void add_presented_kernel_defects(ShapeReach &reach, const std::string &commit, const std::string &path,
                                  const Context &ctx);

} // namespace otm::packet
