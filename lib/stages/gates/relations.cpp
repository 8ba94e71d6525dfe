// gates.md §2.5, always run (the reference needed --full): every target under
// retrieval.links must be a record of the set or of the live store.
#include "gates/gates.hpp"

#include "text/string_pool.hpp"

namespace otm::gates {

namespace {

// A link whose target is already known is good for good (ids are only
// added); the others are judged at the end, when every id of the set is
// known, each kept as what its finding needs.
struct Link {
  std::string_view record, file, kind, target;
  bool is_string;
};

class RelationsPass : public RecordPass {
public:
  explicit RelationsPass(const Context &ctx) {
    for (const auto &id : ctx.live_ids) ids_.intern(id);
  }
  void record(const RecordEntry &r) override {
    ids_.intern(r.id());
    const auto *l = r.record.get("retrieval").get("links").as_object();
    if (!l) return;
    std::string_view record, file;
    bool kept = false;
    for (const auto &[kind, targets] : *l) {
      auto add = [&](const json::Value &t) {
        if (!t.truthy()) return;
        ++checked_;
        const auto *s = t.as_string();
        if (s && ids_.contains(*s)) return;
        if (!kept) {
          record = kept_.keep(r.id());
          file = kept_.keep(r.file);
          kept = true;
        }
        std::string_view kind_name = kinds_[kinds_.intern(kind).index];
        pending_.push_back({record, file, kind_name, kept_.keep(s ? *s : t.python_str()), s != nullptr});
      };
      if (const auto *a = targets.as_array())
        for (const auto &t : *a) add(t);
      else
        add(targets);
    }
  }
  GateResult finish() override {
    GateResult out;
    for (const auto &l : pending_)
      if (!l.is_string || !ids_.contains(l.target))
        out.findings.push_back({gate_name(Gate::Relations), std::string(l.record), std::string(l.file),
                                "links." + std::string(l.kind) + " names no known record", std::string(l.target)});
    out.note = std::to_string(checked_) + " link(s) checked";
    return out;
  }

private:
  text::StringPool ids_;
  text::StringPool kinds_;
  text::StringArena kept_;
  std::vector<Link> pending_; // in the order met
  std::size_t checked_ = 0;
};

} // namespace

std::unique_ptr<RecordPass> relations_pass(const Context &ctx) { return std::make_unique<RelationsPass>(ctx); }

GateResult gate_relations(const Context &ctx) { return over_records(relations_pass(ctx), ctx); }

} // namespace otm::gates
