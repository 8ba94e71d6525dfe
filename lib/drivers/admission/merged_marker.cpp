#include "admission/merged_marker.hpp"

#include "io/file.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

void mark_merged(const std::filesystem::path &record_file, const Outcome &outcome, const json::Value &record,
                 const Timestamp &when, io::FileClass cls) {
  json::Value ledger = json::Value::object();
  try {
    if (auto old = store::read_merged_marker(record_file); old && old->get("merges").is_array()) ledger = *old;
  } catch (const json::ParseError &) {
    // a broken ledger is replaced: the new entry is what matters
  }
  ledger.set("id", record.get("id"));
  json::Value entry = json::Value::object();
  entry.set("merged_at", when.iso);
  entry.set("action", outcome.action);
  entry.set("target", outcome.target.empty() ? json::Value(nullptr) : json::Value(outcome.target));
  entry.set("written", outcome.written.empty() ? json::Value(nullptr) : json::Value(outcome.written));
  json::Value merges = ledger.get("merges").is_array() ? ledger.get("merges") : json::Value::array();
  merges.push_back(std::move(entry));
  ledger.set("merges", std::move(merges));
  io::write_file_atomic(store::merged_marker_path(record_file), json::to_pretty(ledger), cls);
}

} // namespace otm::admission
