// What otm-distill asks of the gates: run the record-level store gates and
// the trace gates on ONE record against its packet, in process. The driver
// depends only on this interface; the implementation over lib/stages/gates lives
// in gates_for_trace.{hpp,cpp}, so no gate is ever implemented twice.
#pragma once

#include <string>
#include <vector>

#include "distill/packet.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct GateFinding {
  std::string gate;       // gate name, e.g. "no-fabrication"
  std::string message;    // what is wrong, as the gate says it
  std::string token = ""; // the offending text when the gate names one
};

class RecordGates {
public:
  virtual ~RecordGates() = default;
  // Every finding for `record` as it would be filed at `relpath` (relative
  // to the store root, "records/..."); empty when all gates pass. Called
  // from several worker threads at once.
  virtual std::vector<GateFinding> check(const json::Value &record, const std::string &relpath,
                                         const Packet &packet) const = 0;
};

} // namespace otm::distill
