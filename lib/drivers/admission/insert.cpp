#include "admission/actions.hpp"
#include "admission/index_entry.hpp"
#include "admission/live_index.hpp"
#include "admission/store_commit.hpp"
#include "record/store_layout.hpp"
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
  std::string id = rec.string_or("id");
  json::Value index = load_live_index_for_update(req.live_root);

  std::optional<std::string> existing = indexed_path(index, id);
  if (!existing) existing = file_named_for_id(req.live_root, id);
  if (existing) {
    if (*existing == rel && same_record_at(req.live_root, rel, rec) && indexed_path(index, id)) {
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

  StoreCommit swap(req.live_root);
  swap.write(rel_in_records, json::to_pretty(rec));
  swap.write(workspace::kIndexFileName,
             json::to_pretty(index_with_entry(std::move(index), live_index_entry(rec, rel))));
  swap.commit();
  out.changed = {rel, workspace::kIndexRelpath};
  out.message = "inserted \u2192 " + rel;
  out.mark_merged = true;
  out.written = rel;
  return out;
}

} // namespace otm::admission
