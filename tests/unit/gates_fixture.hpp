// A complete, passing trace fixture for the gate tests: a two-commit git
// trace, a workspace with one packet (+ diff) and profiles.jsonl, a staging
// store with one record and its index, and a live store. Tests mutate the
// record / packet / index before writing, then load a Context.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "gates/context.hpp"
#include "json/value.hpp"

namespace otm::testing {

struct GateFixture {
  std::filesystem::path root; // fresh temp dir
  std::string sha_v0, sha_v1; // commits of the trace
  json::Value record;         // the record to stage (a passing strategy)
  json::Value packet;
  std::string diff;
  json::Value index_entry;    // null: derived from the final record
  std::string record_relpath; // null: derived from the record's layout
  std::vector<std::string> live_ids = {"nvidia.b200.triton.fused-softmax.other-s01"};

  GateFixture();                    // builds the trace and the default record/packet
  static json::Value anti_record(); // a passing anti-strategy (same scope)
  // Writes the store, workspace and live store; returns the loaded context.
  gates::Context write_and_load();
  std::filesystem::path store() const { return root / "staging"; }
  std::filesystem::path workspace() const { return root / "ws"; }
  std::filesystem::path live() const { return root / "live"; }
  std::filesystem::path trace() const { return root / "trace-x"; }
};

} // namespace otm::testing
