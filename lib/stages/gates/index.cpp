// gates.md §2.6, with malformed entries reported instead of crashing. The
// index is held as its entries' places (store/lazy_index.hpp): an entry is
// parsed when its record is checked, so the pass holds the index's ids,
// not its values.
#include "gates/gates.hpp"

#include <algorithm>

#include "record/format_tags.hpp"
#include "schema/canonical.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

namespace otm::gates {

namespace {

// What the gate reads of an entry besides its id, in this order.
const std::vector<std::string> &entry_members() {
  static const std::vector<std::string> members = {"retrieval", "worth_score", "tier", "gain_pct"};
  return members;
}
enum Member { Retrieval, WorthScore, Tier, GainPct };

bool same_number(const json::Value &a, const json::Value &b) {
  if (a.is_number() && b.is_number()) return *a.as_number() == *b.as_number();
  return a == b;
}

class IndexPass : public RecordPass {
public:
  explicit IndexPass(const Context &ctx) : index_(ctx.index) {
    constexpr Gate g = Gate::Index;
    if (ctx.index_unreadable) {
      cannot_ = cannot_run(g, std::string(workspace::kIndexRelpath) + " does not parse; rebuild it with otm-score");
    } else if (!ctx.index) {
      cannot_ = cannot_run(
          g, ctx.store_root
                 ? std::string(workspace::kIndexRelpath) + " is missing; build it with otm-score before validating"
                 : std::string("the index gate needs a store directory (") + workspace::kIndexRelpath + ")");
    }
    if (cannot_) return;
    const auto &index = *index_;
    if (index.schema() != record::kStoreSchemaTag)
      head_.push_back(
          finding(g, index_entry_, std::string("index schema is not ") + record::kStoreSchemaTag, index.schema()));
    if (index.has_records_list()) {
      const auto &entries = index.entries();
      for (std::size_t i = 0; i < entries.size(); ++i) {
        const auto &e = entries[i];
        bool complete = e.has_id;
        for (std::size_t m = 0; m < entry_members().size(); ++m) complete = complete && index.has(e, m);
        if (!complete) {
          head_.push_back(finding(g, index_entry_, "index entry lacks id, retrieval, worth_score, tier or gain_pct",
                                  std::string(index.id(e))));
          continue;
        }
        by_id_.push_back(i);
      }
      // The entry of an id is the last complete one listed under it.
      auto id = [&](std::size_t i) { return index.id(entries[i]); };
      std::stable_sort(by_id_.begin(), by_id_.end(), [&](std::size_t a, std::size_t b) { return id(a) < id(b); });
      std::vector<std::size_t> last;
      for (std::size_t k = 0; k < by_id_.size(); ++k)
        if (k + 1 == by_id_.size() || id(by_id_[k + 1]) != id(by_id_[k])) last.push_back(by_id_[k]);
      by_id_ = std::move(last);
    } else {
      head_.push_back(finding(g, index_entry_, "index has no records list"));
    }
  }

  void record(const RecordEntry &r) override {
    ++records_;
    if (cannot_ || !r.parse_error.empty()) return;
    constexpr Gate g = Gate::Index;
    const auto *e = entry_of(r.id());
    if (!e) {
      body_.push_back(finding(g, r, "record is not in the index", r.id()));
      return;
    }
    // Parsed now, dropped when this record is done.
    auto listed = index_->parse(*e);
    const auto &rank = r.record.get("worth").get("rank");
    // Equal as parsed (same key order) is the common case, and implies
    // structurally equal.
    const auto &retrieval = listed[Retrieval], &own = r.record.get("retrieval");
    if (!(retrieval == own) && !schema::structurally_equal(retrieval, own, {}))
      body_.push_back(finding(g, r, "index retrieval differs from the record's"));
    if (!same_number(listed[WorthScore], rank.get("score")))
      body_.push_back(finding(g, r, "index worth_score differs from worth.rank.score"));
    if (!(listed[Tier] == rank.get("tier"))) body_.push_back(finding(g, r, "index tier differs from worth.rank.tier"));
    if (!same_number(listed[GainPct], r.record.get("worth").get("gain").get("pct")))
      body_.push_back(finding(g, r, "index gain_pct differs from worth.gain.pct"));
  }

  GateResult finish() override {
    if (cannot_) return *cannot_;
    // The count is known only now; it is reported before the records' findings.
    GateResult out;
    out.findings = std::move(head_);
    if (by_id_.size() != records_)
      out.findings.push_back(finding(Gate::Index, index_entry_,
                                     "index lists " + std::to_string(by_id_.size()) + " ids for " +
                                         std::to_string(records_) + " record files"));
    for (auto &f : body_) out.findings.push_back(std::move(f));
    return out;
  }

private:
  const store::LazyIndex::Entry *entry_of(std::string_view id) const {
    const auto &entries = index_->entries();
    auto it = std::lower_bound(by_id_.begin(), by_id_.end(), id,
                               [&](std::size_t i, std::string_view v) { return index_->id(entries[i]) < v; });
    if (it == by_id_.end() || index_->id(entries[*it]) != id) return nullptr;
    return &entries[*it];
  }

  std::shared_ptr<const store::LazyIndex> index_;
  RecordEntry index_entry_{workspace::kIndexRelpath, {}, {}, ""};
  std::optional<GateResult> cannot_;
  std::vector<std::size_t> by_id_; // the complete entries, one per id, sorted by id
  std::vector<Finding> head_, body_;
  std::size_t records_ = 0;
};

} // namespace

std::unique_ptr<RecordPass> index_pass(const Context &ctx) { return std::make_unique<IndexPass>(ctx); }

GateResult gate_index(const Context &ctx) { return over_records(index_pass(ctx), ctx); }

std::shared_ptr<const store::LazyIndex> load_gate_index(const fs::path &root, const config::Limits &limits) {
  auto index = store::LazyIndex::load(root, limits, entry_members());
  if (!index) return nullptr;
  return std::make_shared<const store::LazyIndex>(std::move(*index));
}

std::shared_ptr<const store::LazyIndex> gate_index_from(const json::Value &index) {
  return std::make_shared<const store::LazyIndex>(store::LazyIndex::from_text(json::to_line(index), entry_members()));
}

} // namespace otm::gates
