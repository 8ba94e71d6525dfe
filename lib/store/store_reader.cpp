#include "store/store_reader.hpp"

#include <algorithm>

#include "json/parse.hpp"

namespace otm::store {

std::vector<StoredRecord> record_files(const fs::path &root) {
  std::vector<StoredRecord> out;
  fs::path dir = root / "records";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".json" || it->path().filename() == "index.json")
      continue;
    StoredRecord r;
    r.path = it->path();
    r.relpath = it->path().lexically_relative(root).generic_string();
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(), [](const StoredRecord &a, const StoredRecord &b) { return a.relpath < b.relpath; });
  return out;
}

void read_record(StoredRecord &r) {
  try {
    r.record = json::parse_file(r.path);
  } catch (const std::exception &e) {
    r.parse_error = e.what();
  }
}

std::vector<StoredRecord> load_records(const fs::path &root) {
  auto out = record_files(root);
  for (auto &r : out) read_record(r);
  return out;
}

std::optional<json::Value> load_index(const fs::path &root) {
  fs::path p = root / "records" / "index.json";
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  return json::parse_file(p);
}

std::vector<json::Value> live_entries(const fs::path &root) {
  std::vector<json::Value> out;
  try {
    if (auto index = load_index(root)) {
      if (const auto *list = index->get("records").as_array()) return *list;
    }
  } catch (const json::ParseError &) {
    // fall through to the walk: an unreadable index must not hide the records
  }
  for (const auto &r : load_records(root)) {
    if (!r.parse_error.empty()) continue;
    json::Value e = json::Value::object();
    e.set("id", r.record.get("id"));
    e.set("type", r.record.get("type"));
    e.set("episode_key", r.record.get("episode_key"));
    e.set("path", r.relpath);
    e.set("retrieval", r.record.get("retrieval"));
    out.push_back(std::move(e));
  }
  return out;
}

} // namespace otm::store
