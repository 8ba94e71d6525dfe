#include "admission/index_entry.hpp"

#include <algorithm>
#include <set>

#include "record/format_tags.hpp"
#include "text/utf8.hpp"

namespace otm::admission {

namespace {

// Python `a or b or c` over values: the first truthy one, else the last.
json::Value first_truthy(std::initializer_list<const json::Value *> vs) {
  const json::Value *last = &json::null_value();
  for (const auto *v : vs) {
    if (v->truthy()) return *v;
    last = v;
  }
  return *last;
}

std::string search_text(const json::Value &r) {
  const auto &p = r.get("payload");
  std::vector<std::string> parts;
  auto add = [&](const json::Value &v) {
    if (v.truthy()) parts.push_back(v.is_string() ? *v.as_string() : v.python_str());
  };
  add(r.get("id"));
  for (const char *k : {"title", "goal", "technique", "what", "summary", "lesson", "attempted"}) add(p.get(k));
  add(p.get("problem").get("statement"));
  add(p.get("problem").get("operator"));
  if (const auto *secs = p.get("sections").as_array())
    for (const auto &s : *secs) add(s.get("heading"));
  const auto &ret = r.get("retrieval");
  for (const auto *list : {&ret.get("triggers"), &ret.get("technique_tags"), &ret.get("signals").get("symptoms")})
    if (const auto *a = list->as_array())
      for (const auto &v : *a) add(v);
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? " " : "") + parts[i];
  return text::to_lower(joined);
}

json::Value tracks(const json::Value &r) {
  const auto *track = r.get("evidence").get("summary").get("measured_on").get("track").as_string();
  if (!track) return nullptr;
  std::set<std::string> parts;
  std::size_t start = 0;
  while (start <= track->size()) {
    std::size_t end = track->find('/', start);
    if (end == std::string::npos) end = track->size();
    std::string part = std::string(text::strip(std::string_view(*track).substr(start, end - start)));
    if (!part.empty()) parts.insert(part);
    start = end + 1;
  }
  if (parts.empty()) return nullptr;
  return json::Value::strings({parts.begin(), parts.end()});
}

} // namespace

json::Value live_index_entry(const json::Value &r, const std::string &relpath) {
  const auto &p = r.get("payload");
  const auto &worth = r.get("worth");
  json::Value e = json::Value::object();
  e.set("id", r.get("id"));
  e.set("type", r.get("type"));
  e.set("level", r.get("level"));
  e.set("status", r.get("status"));
  e.set("episode_key", r.get("episode_key"));
  e.set("path", relpath);
  e.set("title", first_truthy({&p.get("title"), &p.get("technique"), &p.get("problem").get("statement")}));
  e.set("retrieval", r.get("retrieval"));
  e.set("worth_score", worth.get("rank").get("score"));
  e.set("tier", worth.get("rank").get("tier"));
  e.set("gain_pct", worth.get("gain").get("pct"));
  e.set("page_path", r.get("evidence").get("raw").get("page_path"));
  e.set("search_text", search_text(r));
  e.set("tracks", tracks(r));
  e.set("speedup_x", r.get("retrieval").get("signals").get("metrics").get("page_best_speedup_x"));
  e.set("refk_status", r.get("evidence").get("raw").get("evidence_extra").get("manifest_status"));
  return e;
}

json::Value index_with_entry(json::Value index, json::Value entry) {
  json::Value out = std::move(index);
  if (!out.is_object()) {
    out = json::Value::object();
    out.set("schema", record::kStoreSchemaTag);
    out.set("generated_by", "otm-wiki-gate");
    out.set("builder_version", "1.1");
  }
  // The entries are moved, never copied (an index of thousands of entries),
  // and an already sorted list takes the new entry at its place.
  json::Array entries;
  if (auto *records = out.find("records"); records && records->is_array()) entries = std::move(*records->as_array());
  auto id_of = [](const json::Value &e) {
    const auto *s = e.get("id").as_string();
    return s ? std::string_view(*s) : std::string_view();
  };
  auto by_id = [&](const json::Value &a, const json::Value &b) { return id_of(a) < id_of(b); };
  std::string id = entry.string_or("id");
  std::erase_if(entries, [&](const json::Value &e) { return id_of(e) == id; });
  if (std::is_sorted(entries.begin(), entries.end(), by_id)) {
    entries.insert(std::upper_bound(entries.begin(), entries.end(), entry, by_id), std::move(entry));
  } else {
    entries.push_back(std::move(entry));
    std::stable_sort(entries.begin(), entries.end(), by_id);
  }
  out.set("count", static_cast<long long>(entries.size()));
  out.set("records", json::Value(std::move(entries)));
  return out;
}

} // namespace otm::admission
