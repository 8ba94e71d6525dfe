// The seventeen gates (spec gates.md, with the fixes in docs/differences.md).
// Each takes the whole context and returns its findings; none throws on bad
// record content (a missing field is a finding, not a crash).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gates/context.hpp"
#include "gates/finding.hpp"
#include "gates/record_pass.hpp"

namespace otm::gates {

// Store gates: the store's own rules, run on any set of records.
GateResult gate_schema(const Context &ctx);
GateResult gate_ids(const Context &ctx);
GateResult gate_anonymization(const Context &ctx);
GateResult gate_raw_isolation(const Context &ctx);
GateResult gate_relations(const Context &ctx);
GateResult gate_index(const Context &ctx);
GateResult gate_self_contained(const Context &ctx);
GateResult gate_no_cross_reference(const Context &ctx);
GateResult gate_established_fact(const Context &ctx);
// The store gates as passes over records (gates/record_pass.hpp); each
// gate_* above is its pass over ctx.records.
std::unique_ptr<RecordPass> schema_pass(const Context &ctx);
std::unique_ptr<RecordPass> ids_pass(const Context &ctx);
std::unique_ptr<RecordPass> anonymization_pass(const Context &ctx);
std::unique_ptr<RecordPass> raw_isolation_pass(const Context &ctx);
std::unique_ptr<RecordPass> relations_pass(const Context &ctx);
std::unique_ptr<RecordPass> index_pass(const Context &ctx);
std::unique_ptr<RecordPass> self_contained_pass(const Context &ctx);
std::unique_ptr<RecordPass> no_cross_reference_pass(const Context &ctx);
std::unique_ptr<RecordPass> established_fact_pass(const Context &ctx);
// The index as the index gate reads it: null when the store has neither
// records/index.json nor its journal; throws json::ParseError where
// store::load_index does. An index built in memory (one record's, for the
// injection tests) is given whole.
std::shared_ptr<const store::LazyIndex> load_gate_index(const std::filesystem::path &root,
                                                        const config::Limits &limits);
std::shared_ptr<const store::LazyIndex> gate_index_from(const json::Value &index);
// Trace gates: need the workspace, the trace or the live store.
GateResult gate_profile(const Context &ctx);
GateResult gate_layout(const Context &ctx);
GateResult gate_verbatim(const Context &ctx);
GateResult gate_no_fabrication(const Context &ctx);
GateResult gate_provenance(const Context &ctx);
GateResult gate_ncu_attribution(const Context &ctx);
GateResult gate_store_overlap(const Context &ctx);
GateResult gate_substance(const Context &ctx); // issue 10: no change, no strategy

enum class GateKind { Store, Trace };

// Each gate, by its registry entry (gates/registry.def): code names a gate
// so, and the registry alone spells its name.
enum class Gate {
#define OTM_GATE(id, ...) id,
#include "gates/registry.def"
#undef OTM_GATE
};

// One registry entry; registry.def fills it by field name.
struct GateInfo {
  Gate gate;
  std::string name; // "schema", "no-cross-reference", ...: otm-gate-<name>, a finding's "gate"
  GateKind kind;
  GateResult (*run)(const Context &);
  std::string summary; // one line for --help and reports
  // Judges the record set as a whole (links between records, the index
  // otm-score writes), so it cannot run on one record before staging.
  bool whole_store = false;
  // The gate as a pass over records, for the one-pass store gates; null
  // for a gate that has none (record_pass.hpp adapts it).
  PassFactory pass = nullptr;
  // Run by the admission gate on an incoming record before it touches the
  // live store (validate_record_for_admission), beside the schema and the
  // established-fact rule.
  bool at_admission = false;
  // Context beyond the records that the gate reads: records/index.json,
  // the store schema. A run of store gates loads them only when one of its
  // gates reads them (build_context).
  bool reads_index = false;
  bool reads_schema = false;
  // The record field a finding of this gate is about when the finding does
  // not say ("id", "retrieval.scope", ...; "" for none): where a distiller
  // points a refusal.
  std::string field = "";
  // Its findings' token is a JSON Schema error path ("payload/goal").
  bool token_is_schema_path = false;
};

// The seventeen, store gates first, in the reference's order (substance, an
// otm addition, last).
const std::vector<GateInfo> &all_gates();
const GateInfo *find_gate(const std::string &name);
// The registry's entry and name of a gate.
const GateInfo &gate_info(Gate gate);
const std::string &gate_name(Gate gate);
// The registry's gate of that name; an unknown name is a programming error
// (an otm::Error naming it), never a null to dereference.
const GateInfo &gate_named(const std::string &name);
// The names of a set of gates, in registry order: "store", "trace",
// "record" (per_record_gate_names) or "admission" (at_admission); the
// registry is the one list (otm-validate --list-gates prints these).
std::vector<std::string> gate_names(const std::string &set);
// The gates that judge one record on its own (every gate but the
// whole-store ones), in registry order: what a distiller runs before staging.
std::vector<std::string> per_record_gate_names();

// Runs one gate; an exception becomes a crashed result with one finding.
// Fails closed: a record the gate could not read is a finding of every gate,
// once per file, after the gate's own (add_unreadable).
GateResult run_gate(const GateInfo &gate, const Context &ctx);
// run_gate without the fail-closed findings, for a pass that sees records
// one at a time and adds them at its end.
GateResult run_gate_function(const GateInfo &gate, const Context &ctx);
// Adds each of `unreadable` (unreadable_records) whose file the gate has not
// reported itself (the schema and layout gates do) to a result that did not
// crash.
void add_unreadable(std::vector<Finding> unreadable, GateResult &r);

// A record mined from a trace (it cites a commit): held to the strict leak
// shapes and to the trace gates.
bool is_trace_derived(const json::Value &record);

// Captures a record cites (evidence.raw.evidence_extra.ncu_dirs, and
// profiles/<dir>/... entries of evidence.raw.file_paths), sorted.
std::vector<std::string> cited_captures(const json::Value &record);

// Helpers for gate implementations.
Finding finding(Gate gate, const RecordEntry &r, std::string message, std::string token = "");
// "cannot run" failure for a gate missing its input: never a silent pass.
GateResult cannot_run(Gate gate, const std::string &why);

} // namespace otm::gates
