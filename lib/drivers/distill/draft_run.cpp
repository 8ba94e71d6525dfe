#include "distill/draft_run.hpp"

#include "distill/drafter.hpp"
#include "distill/refusal.hpp"
#include "distill/staging.hpp"
#include "record/store_layout.hpp"
#include "workspace/layout.hpp"

namespace otm::distill {

DraftRunResult draft_into_store(const std::vector<std::filesystem::path> &packets, const workspace::StagingStore &store,
                                const std::string &slug, const RecordGates &gates, const DraftRules &rules,
                                const cli::ProgressFn &progress, const scrub::Denylist *denylist) {
  DraftRunResult res;
  std::vector<LedgerUpdate> updates;
  // The run's records and its ledger are staged together or not at all: a
  // full disk half-way leaves the store as it was (docs/durability.md).
  io::WriteBatch batch;
  for (const auto &path : packets) {
    Packet p = load_packet(path);
    if (denylist) redact_packet(p, *denylist);
    Draft d = draft_record(p, rules);
    if (d.record) {
      auto relpath = workspace::store_relpath(record::record_relpath(*d.record));
      auto findings = gates.check(*d.record, relpath, p);
      if (!findings.empty()) {
        d.refusal = gate_refusal(*d.record, findings);
        d.record.reset();
      }
    }
    if (d.record) {
      auto rel = stage_record(store, *d.record, &batch);
      json::Value line = json::Value::object();
      line.set("seg_id", p.seg_id());
      line.set("written", rel.generic_string());
      line.set("thin", json::Value::strings(d.thin));
      res.lines.push_back(line);
      updates.push_back({p.seg_id(), std::nullopt});
      ++res.written;
    } else {
      json::Value line = refusal_line(p, *d.refusal, "otm-draft");
      res.lines.push_back(line);
      updates.push_back({p.seg_id(), line});
      ++res.refused;
    }
    if (progress) progress(p.seg_id());
  }
  update_refusal_ledger(refusal_ledger_path(store, slug), updates, &batch);
  batch.commit();
  return res;
}

} // namespace otm::distill
