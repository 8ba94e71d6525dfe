// The store gates in one pass (otm-validate --store-gates, the admit target
// of Makefile.pipeline): every GateKind::Store entry of the registry runs as
// a pass (gates/record_pass.hpp) over the records, each record file read and
// parsed once, seen by every pass, then dropped. Memory is what the passes
// keep (the index, ids and links), not the store. Findings are those of the
// gate executables, byte for byte, in registry order.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "gates/context.hpp"
#include "gates/report.hpp"

namespace otm::gates {

// The registry's store gates, in registry order.
std::vector<const GateInfo *> store_gates();

struct PassRun {
  std::vector<GateRun> runs; // one per gate, in the order given
  std::size_t records = 0;   // records seen
};

// Runs `gates` as passes over ctx.records and then, when `stream_from` names
// a store root, over each record file of that store (store::record_files
// order, the order records_from_store gives), read ahead on a thread of its
// own. The first gate (the schema gate among the store gates) runs on a
// second worker thread beside the others; every pass sees every record in
// order. Streamed records are read under the reading policy (ctx.limits).
PassRun run_passes(const std::vector<const GateInfo *> &gates, const Context &ctx,
                   const std::optional<std::filesystem::path> &stream_from = std::nullopt);

} // namespace otm::gates
