// One distillation packet as a distiller sees it (spec packets.md): the
// packet document and the sibling code file it names. The distiller may
// read `agent_facing` and the code file, copy `target`, and copy
// `provenance` into evidence.raw only (spec distill.md §1).
#pragma once

#include <filesystem>
#include <string>

#include "scrub/denylist.hpp"
#include "workspace/agent_facing.hpp"
#include "workspace/packet_head.hpp"
#include "workspace/packet_provenance.hpp"
#include "workspace/packet_target.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct Packet {
  std::filesystem::path path; // the packet's .json file
  json::Value doc;            // the whole packet
  std::string code_name;      // sibling file name ("" when the packet names none)
  std::string code;           // its content ("" when none)
  std::string code_after;     // the kernel file after the change (agent_facing.code_after_file), "" when none

  std::string seg_id() const { return head().seg_id.value_or(path.stem().string()); }
  const json::Value &target() const { return doc.get("target"); }
  const json::Value &agent_facing() const { return doc.get("agent_facing"); }
  const json::Value &provenance() const { return doc.get("provenance"); }
  std::string record_type() const { return head().record_type; }
  // The head, agent_facing's blocks, the target and the provenance, typed;
  // read from `doc` at each call (a test edits doc after loading it).
  workspace::WhatTheRunSaid said() const { return workspace::WhatTheRunSaid::from_json(agent_facing()); }
  workspace::PacketOperator operator_block() const { return workspace::PacketOperator::from_json(agent_facing()); }
  workspace::PacketHead head() const { return workspace::PacketHead::from_json(doc); }
  workspace::AttemptAccount account() const { return workspace::AttemptAccount::from_json(agent_facing()); }
  workspace::PacketKernel kernel_block() const { return workspace::PacketKernel::from_json(agent_facing()); }
  workspace::PacketTarget target_block() const { return workspace::PacketTarget::from_json(doc); }
  workspace::PacketProvenance provenance_block() const { return workspace::PacketProvenance::shown(doc); }
};

// Reads `<seg_id>.json` and the sibling named by agent_facing.diff_file or
// .kernel_file (same directory). A packet that is not a JSON object, or
// that names a sibling outside its directory or missing on disk, throws
// json::ParseError / io::IoError naming the file.
Packet load_packet(const std::filesystem::path &path);

// The packet as a drafter may quote it under the private denylist: every
// string of `agent_facing` with each denylisted term redacted (otm-packet
// scrubs it so already when it ran with the same denylist; a packet made
// without one is redacted here, so no draft quotes a denied term).
void redact_packet(Packet &packet, const scrub::Denylist &denylist);

} // namespace otm::distill
