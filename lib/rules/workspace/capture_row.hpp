// One row of work/profiles.jsonl: a capture directory of the trace
// (profiles/<dir>) as otm-ingest found it, read back by ingest's own
// version rows and by recon (issue 28: each read it field by field with
// string_or). otm-ingest writes the rows (trace::scan_captures).
//
//   auto c = workspace::CaptureRow::from_json(row);
//   if (c.ncu_usable) ... c.dir, c.profiled_kernel.value_or("(no summary)")
//
// The reading is lenient, as those reads always were: a string field that
// is absent, null or of another type reads as absent (""), a flag by its
// truthiness.
#pragma once

#include <optional>
#include <string>

#include "json/value.hpp"

namespace otm::workspace {

struct CaptureRow {
  std::string dir, version; // "v3_ncu", "v3"
  // The kernel its summary.txt names; absent without a summary.
  std::optional<std::string> profiled_kernel;
  bool ncu_usable = false, has_report = false;

  static CaptureRow from_json(const json::Value &row);
};

} // namespace otm::workspace
