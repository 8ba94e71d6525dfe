// The provenance of a packet (packets/<seg_id>.json's `provenance`, spec
// packet.md) as otm-explain reads it back: where the packet's diff starts
// and ends, the capture report it quotes and the versions its kept steps
// come from (issue 28: read field by field with string_or, a renamed field
// read as "" in whichever reader asked for it). otm-packet writes it.
//
//   auto p = workspace::PacketProvenance::from_json(packet).value(); // throws its Error
//   p.diff_from.version.value_or("root"), p.span_versions
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "error/result.hpp"
#include "json/value.hpp"

namespace otm::workspace {

struct PacketProvenance {
  // The capture report directory the packet quotes (under profiles/).
  std::optional<std::string> report_dir;
  // The ends of the packet's diff: each empty when the packet names none
  // (diff_from's version is null for a diff from the root).
  struct End {
    std::optional<std::string> version, git_commit;
  };
  End diff_from, diff_to;
  // The step the packet's code builds on; empty for a packet from before it
  // said.
  std::optional<std::string> builds_on_version;
  // The versions of a span's earlier kept steps and of the record's lineage,
  // in the packet's order.
  std::vector<std::string> span_versions, lineage_versions;

  // The packet's `provenance`. Every field may be absent (a packet without
  // provenance has none), but a field of another type is an UnreadableInput
  // Error naming it.
  static Result<PacketProvenance> from_json(const json::Value &packet);
  // The drafters' reading: the same fields, one of another type read as
  // absent (as their reads always took it) instead of refusing the packet.
  static PacketProvenance shown(const json::Value &packet);
};

} // namespace otm::workspace
