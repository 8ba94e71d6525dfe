// The head of a packet (packets/<seg_id>.json, spec packets.md): the
// segment it was built from (`seg_id`, `seg_kind`) and the record type it
// is for (`record_type`), as the distillers read them back (issue 28: each
// read them field by field with string_or). otm-packet writes them.
//
//   auto head = workspace::PacketHead::from_json(packet);
//   if (head.record_type == "anti-strategy") ... head.seg_id.value_or(stem)
//
// The reading is lenient, as those reads always were: a field that is
// absent, null or of another type reads as absent ("" for the strings).
#pragma once

#include <optional>
#include <string>

#include "json/value.hpp"

namespace otm::workspace {

struct PacketHead {
  // Absent in a packet that names none (its file name then names it).
  std::optional<std::string> seg_id;
  std::string record_type, seg_kind;

  static PacketHead from_json(const json::Value &packet);
};

} // namespace otm::workspace
