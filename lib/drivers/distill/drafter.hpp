// The extractive drafter (otm-draft): packet → one record, or a refusal
// naming the field the packet is too thin to fill. It only quotes what the
// packet holds (spec distill.md §2–§5) and needs no model. The full rule
// set is in docs/distill-brief.md ("What otm-draft does").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "distill/packet.hpp"
#include "distill/refusal.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct Draft {
  std::optional<json::Value> record;
  std::optional<DraftRefusal> refusal;
  // Fields written as a gap (empty, null or a stated default) because the
  // packet is too thin; the record is still written.
  std::vector<std::string> thin;
};

// Deterministic: the same packet gives the same record, byte for byte.
Draft draft_record(const Packet &packet);

} // namespace otm::distill
