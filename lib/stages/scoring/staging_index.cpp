#include "scoring/staging_index.hpp"

#include <algorithm>

#include "record/format_tags.hpp"
#include "store/record_view.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::scoring {

std::string staging_title(const json::Value &r) {
  static const text::Regex sentence_end(R"((?<=[.!?])\s)");
  std::string goal(text::strip(store::RecordView::shown(r).goal.value_or("")));
  std::string title;
  if (!goal.empty()) {
    auto parts = sentence_end.split_once(goal);
    title = std::string(text::prefix_code_points(parts.first, 160));
  }
  if (title.empty() && r.get("id").is_string()) title = *r.get("id").as_string();
  return title;
}

std::string staging_search_text(const json::Value &r, const std::string &title) {
  static const text::Regex spaces(R"(\s+)");
  const auto &p = r.get("payload");
  std::vector<std::string> parts;
  auto add = [&](const json::Value &v) {
    if (v.truthy()) parts.push_back(v.is_string() ? *v.as_string() : v.python_str());
  };
  add(r.get("id"));
  add(json::Value(title));
  for (const char *k : {"goal", "change", "mechanism", "attempted", "lesson"}) add(p.get(k));
  add(p.get("problem").get("statement"));
  add(p.get("problem").get("observed_symptom"));
  for (const char *k : {"technique_tags", "triggers"})
    if (const auto *a = r.get("retrieval").get(k).as_array())
      for (const auto &v : *a) add(v);
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? " " : "") + parts[i];
  std::string collapsed(text::strip(spaces.replace(joined, " ")));
  return std::string(text::prefix_code_points(text::to_lower(collapsed), 2000));
}

json::Value staging_index_entry(const json::Value &r, const std::string &relpath, const Rank &rank) {
  json::Value e = json::Value::object();
  std::string title = staging_title(r);
  e.set("id", r.get("id"));
  e.set("type", r.get("type").truthy() ? r.get("type") : json::Value("strategy"));
  e.set("level", r.get("level"));
  e.set("status", r.get("status"));
  e.set("episode_key", r.get("episode_key"));
  e.set("path", relpath);
  e.set("title", title);
  e.set("retrieval", r.get("retrieval"));
  e.set("worth_score", rank.score);
  e.set("tier", rank.tier);
  e.set("gain_pct", r.get("worth").get("gain").get("pct"));
  e.set("search_text", staging_search_text(r, title));
  return e;
}

json::Value staging_index(std::vector<json::Value> entries, const std::string &builder_version) {
  // Each entry's id read once, not at every comparison.
  std::vector<std::pair<std::string, json::Value>> by_id;
  by_id.reserve(entries.size());
  for (auto &e : entries) by_id.emplace_back(store::RecordView::shown(e).id.value_or(""), std::move(e));
  std::stable_sort(by_id.begin(), by_id.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  entries.clear();
  for (auto &[id, e] : by_id) entries.push_back(std::move(e));
  json::Value doc = json::Value::object();
  doc.set("schema", record::kStoreSchemaTag);
  doc.set("generated_by", "otm-score");
  doc.set("builder_version", builder_version);
  doc.set("count", static_cast<long long>(entries.size()));
  doc.set("records", json::Value(std::move(entries)));
  return doc;
}

} // namespace otm::scoring
