// gates.md §2.6, with malformed entries reported instead of crashing.
#include "gates/gates.hpp"

#include <map>

#include "record/format_tags.hpp"
#include "schema/canonical.hpp"
#include "workspace/layout.hpp"

namespace otm::gates {

namespace {

bool same_number(const json::Value &a, const json::Value &b) {
  if (a.is_number() && b.is_number()) return *a.as_number() == *b.as_number();
  return a == b;
}

class IndexPass : public RecordPass {
public:
  explicit IndexPass(const Context &ctx) {
    const std::string g = "index";
    if (ctx.index_unreadable) {
      cannot_ = cannot_run(g, std::string(workspace::kIndexRelpath) + " does not parse; rebuild it with otm-score");
    } else if (!ctx.index) {
      cannot_ = cannot_run(
          g, ctx.store_root
                 ? std::string(workspace::kIndexRelpath) + " is missing; build it with otm-score before validating"
                 : std::string("the index gate needs a store directory (") + workspace::kIndexRelpath + ")");
    }
    if (cannot_) return;
    const auto &index = *ctx.index;
    if (index.string_or("schema") != record::kStoreSchemaTag)
      head_.push_back(finding(g, index_entry_, std::string("index schema is not ") + record::kStoreSchemaTag,
                              index.string_or("schema")));
    if (const auto *list = index.get("records").as_array()) {
      for (const auto &e : *list) {
        const auto *id = e.get("id").as_string();
        bool complete = id;
        for (const char *k : {"retrieval", "worth_score", "tier", "gain_pct"}) complete = complete && e.contains(k);
        if (!complete) {
          head_.push_back(finding(g, index_entry_, "index entry lacks id, retrieval, worth_score, tier or gain_pct",
                                  id ? *id : ""));
          continue;
        }
        entries_[*id] = &e;
      }
    } else {
      head_.push_back(finding(g, index_entry_, "index has no records list"));
    }
  }

  void record(const RecordEntry &r) override {
    ++records_;
    if (cannot_ || !r.parse_error.empty()) return;
    const std::string g = "index";
    auto it = entries_.find(r.id());
    if (it == entries_.end()) {
      body_.push_back(finding(g, r, "record is not in the index", r.id()));
      return;
    }
    const auto &e = *it->second;
    const auto &rank = r.record.get("worth").get("rank");
    // Equal as parsed (same key order) is the common case, and implies
    // structurally equal.
    const auto &listed = e.get("retrieval"), &own = r.record.get("retrieval");
    if (!(listed == own) && !schema::structurally_equal(listed, own, {}))
      body_.push_back(finding(g, r, "index retrieval differs from the record's"));
    if (!same_number(e.get("worth_score"), rank.get("score")))
      body_.push_back(finding(g, r, "index worth_score differs from worth.rank.score"));
    if (!(e.get("tier") == rank.get("tier"))) body_.push_back(finding(g, r, "index tier differs from worth.rank.tier"));
    if (!same_number(e.get("gain_pct"), r.record.get("worth").get("gain").get("pct")))
      body_.push_back(finding(g, r, "index gain_pct differs from worth.gain.pct"));
  }

  GateResult finish() override {
    if (cannot_) return *cannot_;
    // The count is known only now; it is reported before the records' findings.
    GateResult out;
    out.findings = std::move(head_);
    if (entries_.size() != records_)
      out.findings.push_back(finding("index", index_entry_,
                                     "index lists " + std::to_string(entries_.size()) + " ids for " +
                                         std::to_string(records_) + " record files"));
    for (auto &f : body_) out.findings.push_back(std::move(f));
    return out;
  }

private:
  RecordEntry index_entry_{workspace::kIndexRelpath, {}, {}, ""};
  std::optional<GateResult> cannot_;
  std::map<std::string, const json::Value *> entries_; // into ctx.index, which outlives the pass
  std::vector<Finding> head_, body_;
  std::size_t records_ = 0;
};

} // namespace

std::unique_ptr<RecordPass> index_pass(const Context &ctx) { return std::make_unique<IndexPass>(ctx); }

GateResult gate_index(const Context &ctx) { return over_records(index_pass(ctx), ctx); }

} // namespace otm::gates
