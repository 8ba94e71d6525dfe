// One line of a refusal ledger (staging's refusals/<slug>.jsonl): a packet
// that yielded no record, as the distillers write it (distill::refusal_line)
// and otm-review and the ledger's update read it back (issue 28: each read
// it field by field with string_or).
//
//   auto row = store::RefusalRow::from_json(line);
//   row.seg_id, row.gate.value_or("-")
//
// The reading is lenient, as the review page's always was: a field that is
// absent, null or of another type reads as absent ("" for the strings).
#pragma once

#include <optional>
#include <string>

#include "json/value.hpp"

namespace otm::store {

struct RefusalRow {
  std::string seg_id, record_type, why;
  // The record field refused, and the gate that refused it (none when the
  // distiller refused).
  std::optional<std::string> refused, gate;

  static RefusalRow from_json(const json::Value &line);
};

} // namespace otm::store
