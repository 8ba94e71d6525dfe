// The gate runner otm-distill uses: lib/gates run in process on one record
// and its packet, with the trace-side inputs the trace gates need. Every
// gate except the two store-wide ones runs: `index` (written later by
// otm-score) and `relations` (needs the whole record set).
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "distill/record_gates.hpp"
#include "schema/json_schema.hpp"

namespace otm::distill {

struct TraceGateInputs {
  std::filesystem::path store_root;                // the staging store
  std::optional<std::filesystem::path> trace_repo; // for provenance
  std::string trace_label;                         // evidence.raw.source_repo must equal it
  std::optional<std::filesystem::path> live_root;  // for store-overlap
  std::shared_ptr<const schema::Schema> store_schema, profile;
  std::vector<std::string> id_products;
};

// The gates run on one record: the sixteen minus index and relations.
const std::vector<std::string> &per_record_gate_names();

class TraceGates : public RecordGates {
public:
  explicit TraceGates(TraceGateInputs inputs);
  // The packet's workspace (the directory above packets/) supplies the
  // usable captures (work/profiles.jsonl) for ncu-attribution.
  std::vector<GateFinding> check(const json::Value &record, const std::string &relpath,
                                 const Packet &packet) const override;

private:
  TraceGateInputs in_;
  std::set<std::string> live_ids_, live_keys_;
  bool have_live_ = false;
  mutable std::mutex mu_; // gates run one at a time (libgit2 and the validators are shared)
};

// The built-in store schema and profile (schema/), compiled.
std::shared_ptr<const schema::Schema> builtin_store_schema();
std::shared_ptr<const schema::Schema> builtin_profile();

} // namespace otm::distill
