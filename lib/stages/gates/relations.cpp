// gates.md §2.5, always run (the reference needed --full): every target under
// retrieval.links must be a record of the set or of the live store.
#include "gates/gates.hpp"

#include <set>

namespace otm::gates {

namespace {

// A link is judged at the end, when every id of the set is known; it keeps
// only what its finding needs.
struct Link {
  std::string record, file, kind, target;
  bool is_string;
};

class RelationsPass : public RecordPass {
public:
  explicit RelationsPass(const Context &ctx) : ids_(ctx.live_ids) {}
  void record(const RecordEntry &r) override {
    ids_.insert(r.id());
    const auto *l = r.record.get("retrieval").get("links").as_object();
    if (!l) return;
    for (const auto &[kind, targets] : *l) {
      auto add = [&](const json::Value &t) {
        if (!t.truthy()) return;
        const auto *s = t.as_string();
        links_.push_back({r.id(), r.file, kind, s ? *s : t.python_str(), s != nullptr});
      };
      if (const auto *a = targets.as_array())
        for (const auto &t : *a) add(t);
      else
        add(targets);
    }
  }
  GateResult finish() override {
    GateResult out;
    for (const auto &l : links_)
      if (!l.is_string || !ids_.count(l.target))
        out.findings.push_back({"relations", l.record, l.file, "links." + l.kind + " names no known record", l.target});
    out.note = std::to_string(links_.size()) + " link(s) checked";
    return out;
  }

private:
  std::set<std::string> ids_;
  std::vector<Link> links_;
};

} // namespace

std::unique_ptr<RecordPass> relations_pass(const Context &ctx) { return std::make_unique<RelationsPass>(ctx); }

GateResult gate_relations(const Context &ctx) { return over_records(relations_pass(ctx), ctx); }

} // namespace otm::gates
