// gates.md §2.2.
#include "gates/gates.hpp"

#include <map>

namespace otm::gates {

GateResult gate_ids(const Context &ctx) {
  GateResult out;
  std::map<std::string, std::string> seen;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) continue; // the schema gate reports it
    const auto *id = r.record.get("id").as_string();
    if (!id || id->empty()) {
      out.findings.push_back(finding("ids", r, "record has no id"));
      continue;
    }
    auto [it, fresh] = seen.emplace(*id, r.file);
    if (!fresh) out.findings.push_back(finding("ids", r, "duplicate id (also in " + it->second + ")", *id));
    if (!r.path.empty() && r.path.filename() != *id + ".json")
      out.findings.push_back(
          finding("ids", r, "file name " + r.path.filename().string() + " is not " + *id + ".json", *id));
    std::size_t segments = 1;
    for (char c : *id) segments += c == '.';
    if (segments < 5)
      out.findings.push_back(finding("ids", r, "id has " + std::to_string(segments) + " segments, fewer than 5", *id));
  }
  return out;
}

} // namespace otm::gates
