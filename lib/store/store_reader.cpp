#include "store/store_reader.hpp"

#include <algorithm>

#include "store/pending_commit.hpp"
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
  // A commit under way: its new files are not there yet, its replaced ones
  // still read as before.
  auto view = pending_view(root);
  if (!view.empty()) {
    std::erase_if(out, [&](StoredRecord &r) {
      auto it = view.find(r.relpath);
      if (it == view.end()) return false;
      if (!it->second) return true;
      r.bytes_before_commit = it->second;
      return false;
    });
  }
  std::sort(out.begin(), out.end(), [](const StoredRecord &a, const StoredRecord &b) { return a.relpath < b.relpath; });
  return out;
}

void read_record(StoredRecord &r) {
  try {
    r.record = r.bytes_before_commit ? json::parse(*r.bytes_before_commit, r.path.string()) : json::parse_file(r.path);
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
