// gates.md §2.9 through the one shared rule (record/established_fact.hpp),
// which the admission gate also uses.
#include "gates/gates.hpp"

#include "record/established_fact.hpp"
#include "store/record_view.hpp"

namespace otm::gates {

std::unique_ptr<RecordPass> established_fact_pass(const Context &) {
  auto anti = std::make_shared<std::size_t>(0);
  auto body = [anti](const RecordEntry &r, GateResult &out) {
    if (!r.parse_error.empty()) return;
    if (store::RecordView::shown(r.record).type == "anti-strategy") ++*anti;
    for (auto &p : record::established_fact_problems(r.record))
      out.findings.push_back(finding(Gate::EstablishedFact, r, p));
  };
  return make_pass(body,
                   [anti](GateResult &out) { out.note = std::to_string(*anti) + " anti-strategy record(s) checked"; });
}

GateResult gate_established_fact(const Context &ctx) { return over_records(established_fact_pass(ctx), ctx); }

} // namespace otm::gates
