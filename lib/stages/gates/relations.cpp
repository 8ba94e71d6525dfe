// gates.md §2.5, always run (the reference needed --full): every target under
// retrieval.links must be a record of the set or of the live store.
#include "gates/gates.hpp"

#include <set>

namespace otm::gates {

GateResult gate_relations(const Context &ctx) {
  GateResult out;
  std::set<std::string> ids(ctx.live_ids);
  for (const auto &r : ctx.records) ids.insert(r.id());
  std::size_t links = 0;
  for (const auto &r : ctx.records) {
    const auto *l = r.record.get("retrieval").get("links").as_object();
    if (!l) continue;
    for (const auto &[kind, targets] : *l) {
      std::vector<const json::Value *> items;
      if (const auto *a = targets.as_array())
        for (const auto &t : *a) items.push_back(&t);
      else
        items.push_back(&targets);
      for (const auto *t : items) {
        if (!t->truthy()) continue;
        ++links;
        const auto *s = t->as_string();
        if (!s || !ids.count(*s))
          out.findings.push_back(
              finding("relations", r, "links." + kind + " names no known record", s ? *s : t->python_str()));
      }
    }
  }
  out.note = std::to_string(links) + " link(s) checked";
  return out;
}

} // namespace otm::gates
