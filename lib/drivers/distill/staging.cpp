#include "distill/staging.hpp"

#include <map>

#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "store/record_view.hpp"
#include "store/refusal_row.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::distill {

std::string placement_problem(const json::Value &record, const Packet &packet) {
  std::string want_id = packet.target_block().id;
  std::string got_id = store::RecordView::shown(record).id.value_or("");
  if (got_id != want_id) return "record id '" + got_id + "' is not the packet's target.id '" + want_id + "'";
  std::filesystem::path dir;
  try {
    dir = std::filesystem::path(workspace::kRecordsDirName) / record::record_dir(record);
  } catch (const record::LayoutError &e) {
    return e.what();
  }
  std::filesystem::path want = packet.target_block().output_dir;
  if (dir.lexically_normal() != want.lexically_normal())
    return "record files under '" + dir.string() + "' but the packet's target.output_dir is '" + want.string() + "'";
  return "";
}

std::filesystem::path stage_record(const workspace::StagingStore &store, const json::Value &record,
                                   io::WriteBatch *batch) {
  auto rel = record::record_relpath(record);
  auto path = record::inside(store.records_dir(), rel);
  if (batch)
    batch->add(path, json::to_pretty(record));
  else
    io::write_file_atomic(path, json::to_pretty(record));
  return std::filesystem::path(workspace::kRecordsDirName) / rel;
}

std::filesystem::path refusal_ledger_path(const workspace::StagingStore &store, const std::string &slug) {
  return store.refusals_file(slug);
}

void update_refusal_ledger(const std::filesystem::path &ledger, const std::vector<LedgerUpdate> &updates,
                           io::WriteBatch *batch) {
  std::map<std::string, json::Value> lines;
  if (io::is_regular_file(ledger))
    for (auto &v : json::parse_lines_file(ledger)) lines[store::RefusalRow::from_json(v).seg_id] = v;
  for (const auto &u : updates) {
    if (u.refusal)
      lines[u.seg_id] = *u.refusal;
    else
      lines.erase(u.seg_id);
  }
  std::string out;
  for (const auto &[seg, v] : lines) out += json::to_line(v) + "\n";
  if (batch)
    batch->add(ledger, out);
  else
    io::write_file_atomic(ledger, out);
}

void append_jsonl(const std::filesystem::path &log, const std::vector<json::Value> &lines) {
  std::string out = io::is_regular_file(log) ? io::read_file(log) : std::string();
  if (!out.empty() && out.back() != '\n') out += '\n';
  for (const auto &v : lines) out += json::to_line(v) + "\n";
  io::write_file_atomic(log, out);
}

} // namespace otm::distill
