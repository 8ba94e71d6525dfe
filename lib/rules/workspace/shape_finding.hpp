// An entry of a per-shape list in a packet's `agent_facing.measurements`
// (spec packets.md: `per_shape_vs_measured_against`,
// `shapes_it_reads_past_the_end_of`, `shapes_it_exceeds_shared_memory_on`)
// as the drafters quote it (issue 28: each read it field by field with
// string_or). otm-packet writes the entries.
//
//   auto f = workspace::ShapeFinding::from_json(entry);
//   "the kernel cannot compute " + f.shape
//
// The reading is lenient, as the drafters' reads always were: a field that
// is absent, null or of another type reads as "". The entries' numbers stay
// JSON at the drafters, which quote them as written.
#pragma once

#include <string>

#include "json/value.hpp"

namespace otm::workspace {

struct ShapeFinding {
  // The shape's label ("shape-5").
  std::string shape;
  // Of a loop that reads past the end: the loop, its step and the bound it
  // does not divide.
  std::string loop, step, bound;

  static ShapeFinding from_json(const json::Value &entry);
};

} // namespace otm::workspace
