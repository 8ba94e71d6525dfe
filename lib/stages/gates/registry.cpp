#include "gates/gates.hpp"

#include <algorithm>

#include "error/error.hpp"
#include "record/format_tags.hpp"

namespace otm::gates {

const std::vector<GateInfo> &all_gates() {
  static const std::vector<GateInfo> gates = {
      {"schema", GateKind::Store, gate_schema,
       std::string("every record validates against the store schema (") + record::kStoreSchemaTag + ")", false,
       schema_pass, false, false, true},
      {"ids", GateKind::Store, gate_ids, "ids are unique, name their file, and have five segments", false, ids_pass},
      {"anonymization", GateKind::Store, gate_anonymization,
       "no paths, addresses, pages, private terms (and, for trace records, version ids or hashes)", false,
       anonymization_pass, true},
      {"raw-isolation", GateKind::Store, gate_raw_isolation, "nothing engine-only or raw reaches the served record",
       false, raw_isolation_pass, true},
      {"relations", GateKind::Store, gate_relations, "every link names a record that exists", true, relations_pass},
      {"index", GateKind::Store, gate_index, "records/index.json agrees with the records", true, index_pass, false,
       true},
      {"self-contained", GateKind::Store, gate_self_contained,
       "the payload stands on its own; gains are relative and consistent", false, self_contained_pass, true},
      {"no-cross-reference", GateKind::Store, gate_no_cross_reference,
       "the payload names no repository path or other record", false, no_cross_reference_pass, true},
      {"established-fact", GateKind::Store, gate_established_fact,
       "an anti-strategy states a condition and a causal mechanism", false, established_fact_pass},
      {"profile", GateKind::Trace, gate_profile, "every record validates against the opt-trace-1.0 profile"},
      {"layout", GateKind::Trace, gate_layout, "each record file sits where its type and scope place it"},
      {"verbatim", GateKind::Trace, gate_verbatim, "quoted code is whole lines of the packet's code"},
      {"no-fabrication", GateKind::Trace, gate_no_fabrication, "every number comes from the record's packet"},
      {"provenance", GateKind::Trace, gate_provenance,
       "the cited trace and full commit are the ones the packet cited, and exist"},
      {"ncu-attribution", GateKind::Trace, gate_ncu_attribution,
       "a profiler claim cites a usable capture of its packet"},
      {"store-overlap", GateKind::Trace, gate_store_overlap, "no id already in the live store"},
      {"substance", GateKind::Trace, gate_substance, "a strategy's snippet changes at least one line that runs"},
  };
  return gates;
}

const GateInfo *find_gate(const std::string &name) {
  for (const auto &g : all_gates())
    if (g.name == name) return &g;
  return nullptr;
}

const GateInfo &gate_named(const std::string &name) {
  if (const auto *g = find_gate(name)) return *g;
  throw Error(ErrorKind::Usage, "no gate named '" + name + "' in the registry (otm-validate --list-gates=store)");
}

std::vector<std::string> gate_names(const std::string &set) {
  if (set == "record") return per_record_gate_names();
  std::vector<std::string> out;
  for (const auto &g : all_gates()) {
    bool in = set == "store"       ? g.kind == GateKind::Store
              : set == "trace"     ? g.kind == GateKind::Trace
              : set == "admission" ? g.at_admission
                                   : set == "all";
    if (in) out.push_back(g.name);
  }
  if (out.empty() && set != "admission")
    throw Error(ErrorKind::Usage, "--list-gates takes all, store, trace, record or admission, not '" + set + "'");
  return out;
}

std::vector<std::string> per_record_gate_names() {
  std::vector<std::string> out;
  for (const auto &g : all_gates())
    if (!g.whole_store) out.push_back(g.name);
  return out;
}

void add_unreadable(std::vector<Finding> unreadable, GateResult &r) {
  if (r.crashed) return;
  std::vector<Finding> missing;
  for (auto &f : unreadable) {
    bool reported = std::any_of(r.findings.begin(), r.findings.end(),
                                [&](const Finding &g) { return g.file == f.file && g.gate == f.gate; });
    if (!reported) missing.push_back(std::move(f));
  }
  for (auto &f : missing) r.findings.push_back(std::move(f));
}

GateResult run_gate(const GateInfo &gate, const Context &ctx) {
  GateResult r = run_gate_function(gate, ctx);
  add_unreadable(unreadable_records(gate.name, ctx), r);
  return r;
}

GateResult run_gate_function(const GateInfo &gate, const Context &ctx) {
  try {
    return gate.run(ctx);
  } catch (const std::exception &e) {
    GateResult r;
    r.crashed = true;
    r.note = "ERROR";
    r.findings.push_back({gate.name, "", "", std::string("gate crashed: ") + e.what(), ""});
    return r;
  }
}

Finding finding(const std::string &gate, const RecordEntry &r, std::string message, std::string token) {
  return {gate, r.id(), r.file, std::move(message), std::move(token)};
}

GateResult cannot_run(const std::string &gate, const std::string &why) {
  GateResult r;
  r.note = "cannot run";
  r.findings.push_back({gate, "", "", "cannot run: " + why, ""});
  return r;
}

} // namespace otm::gates
