// How the DRAM traffic of the kernel under test moved across a strategy's
// change, read from the run's own captures (issue 25, rounds 15-16: "Cuts
// scale traffic from DRAM by 128x" served as the mechanism of a change
// whose captures before and after show the same DRAM bytes; the repeats it
// removed were cache hits). A capture before is one of the version the
// step is measured against; one after is one of the step's own usable
// captures; the pair must name the same kernel and the same shape. DRAM
// bytes are proportional to DRAM throughput (% of peak) times duration, so
// their ratio needs no peak bandwidth.
//
//   if (auto t = dram_traffic(segment, ctx)) t->bytes_after_over_before   // 1.0: unchanged
#pragma once

#include <optional>
#include <string>

#include "packet/packet.hpp"
#include "trace/trace_files.hpp"
#include "workspace/segment.hpp"
#include "json/value.hpp"

namespace otm::packet {

// One capture's figures: from summary.txt ("Kernel:", "Shape:", "Duration:
// 205.35 us", "DRAM Throughput: 12.3 %"), else from
// analysis/metrics_key_run.json (`kernel`, `shape`, `gpu__time_duration.sum`
// in ns, `dram__throughput.avg.pct_of_peak_sustained_elapsed`). nullopt
// when a figure is missing.
struct CaptureFigures {
  std::string dir, kernel, shape;
  double dram_pct = 0, duration_us = 0;
};
std::optional<CaptureFigures> capture_figures(const trace::TraceFiles &files, const std::string &dir);

struct DramTraffic {
  CaptureFigures before, after;
  double bytes_after_over_before = 1.0;
};
// nullopt without a strategy segment, a version it is measured against,
// or a matching pair of captures.
std::optional<DramTraffic> dram_traffic(const workspace::Segment &segment, const Context &ctx);

} // namespace otm::packet
