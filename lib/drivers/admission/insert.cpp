#include "admission/actions.hpp"
#include "admission/index_entry.hpp"
#include "admission/live_index.hpp"
#include "admission/store_commit.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "store/candidate_summary.hpp"
#include "store/record_view.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace {
bool same_record_at(const std::filesystem::path &root, const std::string &relpath, const json::Value &record) {
  try {
    return store::read_record(root, relpath) == record;
  } catch (const std::exception &) {
    return false;
  }
}
} // namespace

Outcome insert_record(const CommitRequest &req) {
  Outcome out;
  out.action = "insert";
  const auto &rec = req.record;
  std::filesystem::path rel_in_records;
  try {
    rel_in_records = record::record_relpath(rec);
    record::inside(workspace::records_dir(req.live_root), rel_in_records);
  } catch (const record::LayoutError &e) {
    out.exit_code = 1;
    out.message = std::string("REFUSED: ") + e.what() + "; nothing was written";
    return out;
  }
  std::string rel = workspace::store_relpath(rel_in_records);
  std::string id = store::RecordView::shown(rec).id.value_or("");
  store::KeysIndex keys = live_keys_for_update(req.live_root, req.limits);

  // The id in the index (its base or its journal), else a file at the exact
  // path it would take. A stray file with the id elsewhere is not looked
  // for (docs/differences.md): the index gate reports it.
  std::optional<std::string> indexed = keys.path_of(id);
  std::optional<std::string> existing = indexed;
  if (!existing && io::is_regular_file(req.live_root / rel)) existing = rel;
  if (existing) {
    if (*existing == rel && indexed && same_record_at(req.live_root, rel, rec)) {
      out.message = "inserted \u2192 " + rel + " (already present and identical; nothing changed)";
      out.mark_merged = true;
      out.written = rel;
      return out;
    }
    out.exit_code = 1;
    out.message = "REFUSED: id " + id + " already exists in the live store at " + *existing +
                  "; if this is a rediscovery, run: otm-wiki-gate commit confirm RECORD --target " + id;
    return out;
  }

  StoreCommit swap(req.live_root, req.limits);
  swap.in_batch(req.batch);
  swap.write(rel_in_records, json::to_pretty(rec));
  swap.upsert_index_entry(live_index_entry(rec, rel), store::candidate_summary_text(rec));
  swap.commit();
  out.changed = swap.changed();
  out.message = "inserted \u2192 " + rel;
  out.mark_merged = true;
  out.written = rel;
  return out;
}

} // namespace otm::admission
