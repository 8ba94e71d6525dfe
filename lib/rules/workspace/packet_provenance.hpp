// The provenance of a packet (packets/<seg_id>.json's `provenance`, spec
// packet.md): where the packet came from, never agent-facing. otm-packet
// builds it and writes it with to_json; otm-explain and the gates read it
// back with from_json (issue 28: each reader picked fields out with
// string_or, a renamed field read as "" in whichever reader asked for it).
//
//   auto p = workspace::PacketProvenance::from_json(packet).value(); // throws its Error
//   p.diff_from ? p.diff_from->version.value_or("root") : "", p.span_versions
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error/result.hpp"
#include "json/value.hpp"

namespace otm::workspace {

struct PacketProvenance {
  // The step the packet is of: its trace, version and commit (null for a
  // version without one), and the capture directories of its kernel.
  std::string source_repo, version;
  std::optional<std::string> git_commit;
  std::vector<std::string> ncu_dirs;
  // The capture report directory the packet quotes (under profiles/).
  std::optional<std::string> report_dir;
  std::string shape_label_note;
  // The ends of the packet's diff, each nullopt when the packet has none;
  // an end's version is null for a diff from the root.
  struct End {
    std::optional<std::string> version, git_commit;
    bool operator==(const End &) const = default;
  };
  std::optional<End> diff_from, diff_to;
  bool code_truncated = false;

  // The versions of a strategy's or reference kernel's lineage and of a
  // strategy's span's earlier kept steps, in the packet's order (written
  // for those types, even when empty).
  std::vector<std::string> lineage_versions, span_versions;
  // A milestone snapshot's fastest later milestone of its own DSL.
  std::optional<std::string> later_kernel_of_its_dsl;
  // The final kernel's kept steps after it without a new best, and those
  // with no step record (whether they set one is unknown); the DRAM
  // captures before and after the change; a strategy's reverted earlier
  // tries of its change. Each written only when not empty.
  std::vector<std::string> kept_after_it_without_a_new_best, kept_after_it_unmeasured, dram_captures,
      reverted_earlier_tries_of_this_change;
  // The step a strategy's code builds on (null when the segment names none;
  // written for a strategy only).
  std::optional<std::string> builds_on_version;
  // An anti-strategy's merged accounts of its lever and the kept steps
  // stating a setting of it, by version (null for an entry naming none).
  struct Lever {
    std::vector<std::optional<std::string>> accounts, kept_with_the_same_setting,
        kept_with_other_settings; // the last written only when not empty
    std::vector<std::string> other_accounts_that_passed_correctness;
    bool operator==(const Lever &) const = default;
  };
  std::optional<Lever> lever;

  bool operator==(const PacketProvenance &) const = default;

  // The packet's `provenance`. Every field may be absent (a packet without
  // provenance has none), but a field of another type is an UnreadableInput
  // Error naming it.
  static Result<PacketProvenance> from_json(const json::Value &packet);
  // The `provenance` object, in the order otm-packet writes it; the fields
  // of a strategy or reference kernel only for a packet of `record_type`.
  json::Value to_json(std::string_view record_type) const;
  // The drafters' reading: the same fields, one of another type read as
  // absent (as their reads always took it) instead of refusing the packet.
  static PacketProvenance shown(const json::Value &packet);
};

} // namespace otm::workspace
