// One gate failure: which gate, which record (id and file), what is wrong,
// and the offending token when there is one. Every gate, the gate
// executables and otm-validate speak in these.
#pragma once

#include <string>
#include <vector>

#include "json/value.hpp"

namespace otm::gates {

struct Finding {
  std::string gate;
  std::string record; // record id ("" when the record has none)
  std::string file;   // record file relative to the store, or as given
  std::string message;
  std::string token; // offending text, "" when none
};

// {"gate", "record", "file", "message"[, "token"]}
json::Value to_json(const Finding &f);

// What one gate run produced. `crashed` marks an exception inside the gate:
// reported as a failure, never as "fired" by the injection tests.
struct GateResult {
  std::vector<Finding> findings;
  std::string note;
  bool crashed = false;
  bool passed() const { return findings.empty(); }
};

} // namespace otm::gates
