// The agent-facing texts of one packet, each scrubbed, in the order that
// fixes the scrubber's shape-N numbering (packets.md §2): the spec's fields
// first, then otm's additions. The packet writer (packet.cpp) lays them
// out; nothing here decides which packet fields exist.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "packet/packet.hpp"
#include "packet/report_conclusion.hpp"
#include "packet/shape_reach.hpp"
#include "packet/span.hpp"
#include "scrub/scrubber.hpp"
#include "workspace/segment.hpp"
#include "json/value.hpp"

namespace otm::packet {

struct Texts {
  json::Value description, change, subject, body, gate, shapes;
  std::optional<Conclusion> conclusion;
  json::Value conclusion_text, directions, pitfalls, lever, fix, previous, harness, category, fixed_axes, var_axes;
  json::Value expected, directions_up, evidence, causal;
  json::Value stock; // [{text, steps, kinds}]: this step's texts the run states on steps of other kinds too
  json::Value benchmarked_values;               // each variable axis's values over the workload's shapes
  json::Value benchmarked_shapes;               // each shape's variable axes ({"T": 8, "V": 32000}), once each
  json::Value fixed_axes_benchmarked_otherwise; // a fixed axis's workload values when some differ ({"K": [3, 5]})
  json::Value span_changes;                     // strategy: the earlier kept steps' change texts in its span
  json::Value later_kept;          // anti-strategy: the kept steps of the run that state the same lever settings
  json::Value kept_since_last_try; // strategy: the kept steps since its change's last reverted try
  json::Value other_settings_kept; // anti-strategy: other values of its lever kept steps state ("BLOCK_S=8"), once each
  json::Value lineage;             // strategy, reference kernel: the kept changes of its lineage (Span::lineage)
  json::Value barrier_removal; // reference kernel: {change, barrier} of the lineage step that removed a barrier; null
  json::Value kept_after;      // the final kernel: the kept changes after it (Span::kept_after)
  json::Value kept_after_unmeasured; // the same, of steps with no step record (Span::kept_after_unmeasured)
  json::Value shape_changes;         // strategy, anti-strategy: per shape, against the version it is measured against
  json::Value reads_past_the_end;    // per shape the presented kernel cannot compute: the loop and its bound
  json::Value exceeds_shared_memory; // per shape it cannot launch on: its allocations, their bytes, the limit
};

// `row` is the segment's version row; `taken_up` the directions of earlier
// steps it took up; `type` its record type; `reach` which workload keys'
// shapes run code the packet's diff changed (shapes_reached).
Texts scrub_texts(scrub::Scrubber &s, const workspace::Segment &seg, const workspace::VersionRow &row,
                  const Context &ctx, const std::vector<json::Value> &taken_up, const std::string &type,
                  const Span &span, const ShapeReach &reach = {});

// "Scrubbed": null or "" stays null; anything else is a (possibly empty) string.
json::Value scrubbed(scrub::Scrubber &s, const json::Value &v);

// What a step says it changed: its step record's description, else its
// commit subject.
json::Value change_text_of(const workspace::VersionRow &row);

} // namespace otm::packet
