#include "workspace/packet_head.hpp"

namespace otm::workspace {

PacketHead PacketHead::from_json(const json::Value &packet) {
  PacketHead h;
  if (const auto *s = packet.get("seg_id").as_string()) h.seg_id = *s;
  if (const auto *s = packet.get("record_type").as_string()) h.record_type = *s;
  if (const auto *s = packet.get("seg_kind").as_string()) h.seg_kind = *s;
  return h;
}

} // namespace otm::workspace
