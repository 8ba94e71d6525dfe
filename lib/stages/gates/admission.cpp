#include "gates/admission.hpp"

#include "config/config.hpp"
#include "gates/gates.hpp"
#include "record/established_fact.hpp"

#include <algorithm>

namespace otm::gates {

std::vector<std::string> validate_record_for_admission(const json::Value &record, const schema::Schema &schema,
                                                       const AdmissionOptions &options) {
  std::vector<std::string> out;
  for (auto &p : record::established_fact_problems(record)) out.push_back("established-fact: " + p);
  Context ctx;
  RecordEntry entry;
  entry.file = "incoming/" + [&] {
    auto id = record.get("id").as_string();
    return id && !id->empty() ? *id : std::string("?");
  }() + ".json";
  entry.record = record;
  ctx.records.push_back(std::move(entry));
  ctx.denylist = options.denylist;
  ctx.id_products = options.id_products.empty() ? target_products(config::Config::defaults()) : options.id_products;
  for (const auto &g : all_gates()) {
    if (!g.at_admission) continue;
    auto result = run_gate(g, ctx);
    for (const auto &f : result.findings)
      out.push_back(f.gate + ": " + f.message + (f.token.empty() ? "" : " (" + f.token + ")"));
  }
  for (const auto &e : schema.validate(record)) out.push_back("schema: " + e.path + ": " + e.message);
  return out;
}

Context context_for_record(json::Value record, const std::filesystem::path &file, std::optional<PacketEntry> packet) {
  Context ctx;
  RecordEntry entry;
  entry.file = file.empty() ? "<record>" : file.generic_string();
  entry.path = file;
  entry.record = std::move(record);
  ctx.records.push_back(std::move(entry));
  if (packet) ctx.packets.push_back(std::move(*packet));
  // The packet stands in for a workspace: the packet gates run against it.
  if (packet) ctx.workspace = std::filesystem::path("<in-process packet>");
  return ctx;
}

std::vector<Finding> run_gates(const Context &ctx, const std::vector<std::string> &names) {
  std::vector<Finding> out;
  for (const auto &g : all_gates()) {
    if (!names.empty() && std::find(names.begin(), names.end(), g.name) == names.end()) continue;
    auto r = run_gate(g, ctx);
    out.insert(out.end(), r.findings.begin(), r.findings.end());
  }
  return out;
}

} // namespace otm::gates
