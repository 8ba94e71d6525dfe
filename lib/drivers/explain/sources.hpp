// Where each field of a packet's agent-facing layer is read from in the
// trace: the step record (file and JSON path, via trace::step_record_path),
// the commit subject or body, the capture report's lines, definition.json,
// workload.jsonl, a setting, or otm's own text. The table follows
// packet::build_packet field by field; every source is returned with the
// raw text found there, so a caller verifies a value against the trace
// itself and a table entry that went stale shows up as unexplained, never
// as a wrong answer.
#pragma once

#include <string>
#include <vector>

#include "explain/explanation.hpp"
#include "explain/trace_model.hpp"
#include "workspace/packet_provenance.hpp"
#include "json/value.hpp"

namespace otm::explain {

struct SourceContext {
  const TraceModel &model;
  const workspace::Segment &typed;               // the segment, typed
  const json::Value &packet;                     // the rebuilt packet
  const workspace::PacketProvenance &provenance; // its provenance, typed
};

// The candidate sources of one packet scalar, by its path as
// gates::walk_scalars spells it ("agent_facing.measurements.geomean_us",
// "agent_facing.open_directions[0].direction", "target.id"), most specific
// first. Kind "otm" marks text otm wrote itself (instructions, ids, labels).
std::vector<Source> sources_of(const std::string &packet_path, const SourceContext &ctx);

// A JSON value as text: a string as is, a number in Python's form, a
// container as one JSON line.
std::string text_of_value(const json::Value &v);

} // namespace otm::explain
