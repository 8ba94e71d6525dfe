// gates.md §3.8: an id already live would be refused on insert. Without a
// live store the gate cannot run, and says so.
#include "gates/gates.hpp"

#include "store/record_view.hpp"

namespace otm::gates {

GateResult gate_store_overlap(const Context &ctx) {
  if (!ctx.have_live) return cannot_run(Gate::StoreOverlap, "no live store given (--live / RTM_LIVE)");
  GateResult out;
  std::size_t keys = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) continue;
    if (ctx.live_ids.count(r.id()))
      out.findings.push_back(
          finding(Gate::StoreOverlap, r, "id is already in the live store: insert would be refused", r.id()));
    if (ctx.live_episode_keys.count(store::RecordView::shown(r.record).episode_key.value_or(""))) ++keys;
  }
  out.note = std::to_string(ctx.records.size() - out.findings.size()) + " ids free of " +
             std::to_string(ctx.records.size()) + "; " + std::to_string(keys) +
             " episode_key(s) already in the store (candidates for confirm)";
  return out;
}

} // namespace otm::gates
