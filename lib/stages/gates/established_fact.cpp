// gates.md §2.9 through the one shared rule (record/established_fact.hpp),
// which the admission gate also uses.
#include "gates/gates.hpp"

#include "record/established_fact.hpp"

namespace otm::gates {

GateResult gate_established_fact(const Context &ctx) {
  GateResult out;
  std::size_t anti = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) continue;
    if (r.record.string_or("type") == "anti-strategy") ++anti;
    for (auto &p : record::established_fact_problems(r.record))
      out.findings.push_back(finding("established-fact", r, p));
  }
  out.note = std::to_string(anti) + " anti-strategy record(s) checked";
  return out;
}

} // namespace otm::gates
