// The measurements block of a packet's agent_facing layer (packets.md §3):
// the geomean and its gain, correctness, the run's noise band, its
// re-measurements of this version, per-shape changes against the version
// measured against, the shapes the presented kernel cannot compute or
// launch on, and for a failed attempt how much slower it measured.
#pragma once

#include <string>

#include "packet/packet.hpp"
#include "packet/packet_texts.hpp"
#include "workspace/segment.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::packet {

// Takes the texts' per-shape values (t.shapes, t.shape_changes,
// t.reads_past_the_end, t.exceeds_shared_memory).
json::Value measurements_of(Texts &t, const workspace::Segment &seg, const workspace::VersionRow &row,
                            const Context &ctx, const std::string &type);

} // namespace otm::packet
