#include "store/index_order.hpp"

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
  json::Array entries;
  if (auto *records = out.find("records"); records && records->is_array()) entries = std::move(*records->as_array());
  entries = fold_entries(std::move(entries), std::move(incoming), id_of);
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
