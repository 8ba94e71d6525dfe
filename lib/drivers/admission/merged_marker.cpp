#include "admission/merged_marker.hpp"

#include "io/file.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

std::filesystem::path merged_marker_path(const std::filesystem::path &record_file) {
  auto p = record_file;
  p += ".merged";
  return p;
}

std::optional<json::Value> read_merged_marker(const std::filesystem::path &record_file) {
  auto p = merged_marker_path(record_file);
  if (!io::is_regular_file(p)) return std::nullopt;
  return json::parse_file(p);
}

void mark_merged(const std::filesystem::path &record_file, const Outcome &outcome, const json::Value &record,
                 const Timestamp &when) {
  json::Value ledger = json::Value::object();
  try {
    if (auto old = read_merged_marker(record_file); old && old->get("merges").is_array()) ledger = *old;
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
  io::write_file_atomic(merged_marker_path(record_file), json::to_pretty(ledger));
}

} // namespace otm::admission
