#include "gates/gates.hpp"

#include <algorithm>

#include "error/error.hpp"
#include "record/format_tags.hpp"

namespace otm::gates {

const std::vector<GateInfo> &all_gates() {
  static const std::vector<GateInfo> gates = {
#define OTM_GATE(id, ...) GateInfo{.gate = Gate::id, __VA_ARGS__},
#include "gates/registry.def"
#undef OTM_GATE
  };
  return gates;
}

const GateInfo *find_gate(const std::string &name) {
  for (const auto &g : all_gates())
    if (g.name == name) return &g;
  return nullptr;
}

const GateInfo &gate_info(Gate gate) {
  // The table is in enum order (registry.def makes both), so the entry is at
  // the enum's index.
  return all_gates()[static_cast<std::size_t>(gate)];
}

const std::string &gate_name(Gate gate) { return gate_info(gate).name; }

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

Finding finding(Gate gate, const RecordEntry &r, std::string message, std::string token) {
  return {gate_name(gate), r.id(), r.file, std::move(message), std::move(token)};
}

GateResult cannot_run(Gate gate, const std::string &why) {
  GateResult r;
  r.note = "cannot run";
  r.findings.push_back({gate_name(gate), "", "", "cannot run: " + why, ""});
  return r;
}

} // namespace otm::gates
