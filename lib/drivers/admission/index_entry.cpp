#include "admission/index_entry.hpp"

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

} // namespace otm::admission
