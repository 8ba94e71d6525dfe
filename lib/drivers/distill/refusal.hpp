// A packet that yields no record: the field it could not support, why, and
// — when a gate stopped the record — which gate. Every distiller writes
// these lines to the refusal ledger (distill/staging.hpp), and the
// reviewer's README lists them.
#pragma once

#include <string>
#include <vector>

#include "distill/packet.hpp"
#include "distill/record_gates.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct DraftRefusal {
  std::string field; // the record field the packet cannot support (or the gate refused)
  std::string why;
  std::string gate = ""; // the gate that refused the record; "" when the distiller refused
};

// {"seg_id", "id", "record_type", "refused", "why"[, "gate"], "by"}: the
// line printed by the distillers and kept in the refusal ledger.
json::Value refusal_line(const Packet &packet, const DraftRefusal &refusal, const std::string &by);

// A record some gate refused becomes a refusal: the first finding's gate
// and the record field it concerns (finding_field), every finding in `why`.
DraftRefusal gate_refusal(const json::Value &record, const std::vector<GateFinding> &findings);

// The record field a finding concerns, as a path ("payload.mechanism",
// "retrieval.technique_tags[0]"): the path the message names, else the
// first served string holding the finding's token, else the gate's own
// field (ids → id, layout → retrieval.scope, ...), else "record".
std::string finding_field(const json::Value &record, const GateFinding &finding);

} // namespace otm::distill
