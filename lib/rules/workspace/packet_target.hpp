// A packet's `target` (spec packets.md): the record the packet is for, by
// id, where it files and the scope it files under, as the drafters, the
// staging and the quality signals read it back (issue 28: each read it
// field by field with string_or). otm-packet writes it; a drafter copies
// it into the record.
//
//   auto t = workspace::PacketTarget::from_json(packet);
//   t.id, t.output_dir, t.scope.vendor
//
// The reading is lenient, as those reads always were: a field that is
// absent, null or of another type reads as "" (the drafter refuses a
// packet without a target.id itself).
#pragma once

#include <string>

#include "json/value.hpp"

namespace otm::workspace {

struct PacketTarget {
  std::string id, output_dir;
  struct Scope {
    std::string vendor, product, dsl, operator_family;
  } scope;

  // The packet's `target` (the packet, not the block).
  static PacketTarget from_json(const json::Value &packet);
};

} // namespace otm::workspace
