// gates.md §2.6, with malformed entries reported instead of crashing.
#include "gates/gates.hpp"

#include <map>

#include "schema/canonical.hpp"

namespace otm::gates {

namespace {
bool same_number(const json::Value &a, const json::Value &b) {
  if (a.is_number() && b.is_number()) return *a.as_number() == *b.as_number();
  return a == b;
}
} // namespace

GateResult gate_index(const Context &ctx) {
  const std::string g = "index";
  if (ctx.index_unreadable) return cannot_run(g, "records/index.json does not parse; rebuild it with otm-score");
  if (!ctx.index) {
    if (!ctx.store_root) return cannot_run(g, "the index gate needs a store directory (records/index.json)");
    return cannot_run(g, "records/index.json is missing; build it with otm-score before validating");
  }
  GateResult out;
  const auto &index = *ctx.index;
  RecordEntry index_entry{"records/index.json", {}, {}, ""};
  if (index.string_or("schema") != "clean-1.3")
    out.findings.push_back(finding(g, index_entry, "index schema is not clean-1.3", index.string_or("schema")));
  std::map<std::string, const json::Value *> entries;
  if (const auto *list = index.get("records").as_array()) {
    for (const auto &e : *list) {
      const auto *id = e.get("id").as_string();
      bool complete = id;
      for (const char *k : {"retrieval", "worth_score", "tier", "gain_pct"}) complete = complete && e.contains(k);
      if (!complete) {
        out.findings.push_back(
            finding(g, index_entry, "index entry lacks id, retrieval, worth_score, tier or gain_pct", id ? *id : ""));
        continue;
      }
      entries[*id] = &e;
    }
  } else {
    out.findings.push_back(finding(g, index_entry, "index has no records list"));
  }
  if (entries.size() != ctx.records.size())
    out.findings.push_back(finding(g, index_entry,
                                   "index lists " + std::to_string(entries.size()) + " ids for " +
                                       std::to_string(ctx.records.size()) + " record files"));
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) continue;
    auto it = entries.find(r.id());
    if (it == entries.end()) {
      out.findings.push_back(finding(g, r, "record is not in the index", r.id()));
      continue;
    }
    const auto &e = *it->second;
    const auto &rank = r.record.get("worth").get("rank");
    if (!schema::structurally_equal(e.get("retrieval"), r.record.get("retrieval"), {}))
      out.findings.push_back(finding(g, r, "index retrieval differs from the record's"));
    if (!same_number(e.get("worth_score"), rank.get("score")))
      out.findings.push_back(finding(g, r, "index worth_score differs from worth.rank.score"));
    if (!(e.get("tier") == rank.get("tier")))
      out.findings.push_back(finding(g, r, "index tier differs from worth.rank.tier"));
    if (!same_number(e.get("gain_pct"), r.record.get("worth").get("gain").get("pct")))
      out.findings.push_back(finding(g, r, "index gain_pct differs from worth.gain.pct"));
  }
  return out;
}

} // namespace otm::gates
