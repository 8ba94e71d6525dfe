// The extractive drafter (otm-draft): packet → one record, or a refusal
// naming the field the packet is too thin to fill. It only quotes what the
// packet holds (spec distill.md §2–§5) and needs no model. The full rule
// set is in docs/distill-brief.md ("What otm-draft does").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "distill/packet.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct DraftRefusal {
  std::string field; // the record field the packet cannot support
  std::string why;
};

struct Draft {
  std::optional<json::Value> record;
  std::optional<DraftRefusal> refusal;
  // Fields written as a gap (empty, null or a stated default) because the
  // packet is too thin; the record is still written.
  std::vector<std::string> thin;
};

// Deterministic: the same packet gives the same record, byte for byte.
Draft draft_record(const Packet &packet);

// {"seg_id", "id", "record_type", "refused", "why"}: the refusal line
// printed by otm-draft and kept in the refusal ledger.
json::Value refusal_line(const Packet &packet, const DraftRefusal &refusal);

} // namespace otm::distill
