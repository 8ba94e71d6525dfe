// The gate runner both distillers use (otm-draft and otm-distill): lib/stages/gates
// run in process on one record and its packet, with the trace-side inputs
// the trace gates need. Every gate runs except the whole-store ones
// (gates::per_record_gate_names: `index`, written later by otm-score, and
// `relations`, which needs the whole record set).
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/settings.hpp"
#include "distill/record_gates.hpp"
#include "schema/json_schema.hpp"
#include "text/regex.hpp"

namespace otm::distill {

struct TraceGateInputs {
  std::filesystem::path store_root;                // the staging store
  std::optional<std::filesystem::path> trace_repo; // for provenance
  std::string trace_label;                         // evidence.raw.source_repo must equal it
  std::optional<std::filesystem::path> live_root;  // for store-overlap
  std::shared_ptr<const schema::Schema> store_schema, profile;
  std::vector<std::string> id_products;
  std::shared_ptr<const text::Regex> denylist; // the private denylist, for anonymization (null: none)
};

class TraceGates : public RecordGates {
public:
  explicit TraceGates(TraceGateInputs inputs);
  // The packet's workspace (the directory above packets/) supplies the
  // usable captures (work/profiles.jsonl) for ncu-attribution.
  std::vector<GateFinding> check(const json::Value &record, const std::string &relpath,
                                 const Packet &packet) const override;

private:
  TraceGateInputs in_;
  std::vector<std::string> names_; // gates::per_record_gate_names()
  std::set<std::string> live_ids_, live_keys_;
  bool have_live_ = false;
  mutable std::mutex mu_; // gates run one at a time (libgit2 and the validators are shared)
};

// The inputs from the run's settings: the trace (--trace / RTM_TRACE, for
// provenance), its label, the live store (--live / RTM_LIVE, for
// store-overlap), the private denylist (--denylist / ATREX_WIKI_DENYLIST,
// for anonymization, the one reader: a configured file that cannot be read
// is an io::IoError naming it) and the configuration (record-id products).
// A missing trace or live store is a Usage Error naming the setting: the
// gates that need them would otherwise fail every record.
TraceGateInputs trace_gate_inputs(const config::Settings &settings, const config::Config &config,
                                  const std::filesystem::path &store_root);

} // namespace otm::distill
