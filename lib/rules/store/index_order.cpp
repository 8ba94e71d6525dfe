#include "store/index_order.hpp"

#include <algorithm>
#include <map>

#include "record/format_tags.hpp"

namespace otm::store {

namespace {
std::string_view id_of(const json::Value &e) {
  const auto *s = e.get("id").as_string();
  return s ? std::string_view(*s) : std::string_view();
}
} // namespace

json::Value index_with_entries(json::Value index, std::vector<json::Value> incoming) {
  json::Value out = std::move(index);
  if (!out.is_object()) {
    out = json::Value::object();
    out.set("schema", record::kStoreSchemaTag);
    out.set("generated_by", "otm-wiki-gate");
    out.set("builder_version", "1.1");
  }
  // The last upsert of an id wins; the entries are moved, never copied (an
  // index of thousands of entries).
  std::map<std::string, json::Value, std::less<>> latest;
  for (auto &e : incoming) latest.insert_or_assign(std::string(id_of(e)), std::move(e));
  json::Array entries;
  if (auto *records = out.find("records"); records && records->is_array()) entries = std::move(*records->as_array());
  auto by_id = [](const json::Value &a, const json::Value &b) { return id_of(a) < id_of(b); };
  std::erase_if(entries, [&](const json::Value &e) { return latest.count(id_of(e)) != 0; });
  if (std::is_sorted(entries.begin(), entries.end(), by_id)) {
    // An already sorted list takes the new entries at their places (the map
    // gives them sorted): one merge.
    json::Array merged;
    merged.reserve(entries.size() + latest.size());
    auto it = entries.begin();
    for (auto &[id, e] : latest) {
      for (; it != entries.end() && !(id < id_of(*it)); ++it) merged.push_back(std::move(*it));
      merged.push_back(std::move(e));
    }
    for (; it != entries.end(); ++it) merged.push_back(std::move(*it));
    entries = std::move(merged);
  } else {
    for (auto &[id, e] : latest) entries.push_back(std::move(e));
    std::stable_sort(entries.begin(), entries.end(), by_id);
  }
  out.set("count", static_cast<long long>(entries.size()));
  out.set("records", json::Value(std::move(entries)));
  return out;
}

json::Value index_with_entry(json::Value index, json::Value entry) {
  std::vector<json::Value> one;
  one.push_back(std::move(entry));
  return index_with_entries(std::move(index), std::move(one));
}

} // namespace otm::store
