#include "admission/match.hpp"

#include "record/store_layout.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"

namespace otm::admission {

namespace {
json::Value get_or(const json::Value &obj, std::string_view key, json::Value fallback) {
  const auto *v = obj.find(key);
  return v ? *v : fallback;
}
} // namespace

std::string gain_direction(const json::Value &r) {
  std::string type = r.string_or("type");
  if (type == "anti-strategy") return "negative";
  const auto &pct = r.get("worth").get("gain").get("pct");
  if (auto x = pct.as_number()) return *x > 0 ? "positive" : "negative";
  if (type == "strategy") return "positive";
  return "unknown";
}

json::Value record_summary(const json::Value &r) {
  const auto &p = r.get("payload");
  const auto &problem = p.get("problem");
  const auto &gain = r.get("worth").get("gain");
  json::Value s = json::Value::object();
  s.set("id", r.get("id"));
  s.set("type", r.get("type"));
  s.set("episode_key", r.get("episode_key"));
  s.set("change", get_or(p, "change", ""));
  s.set("mechanism", get_or(p, "mechanism", ""));
  s.set("goal", get_or(p, "goal", ""));
  s.set("observed_symptom", get_or(problem, "observed_symptom", ""));
  s.set("operator", get_or(problem, "operator", ""));
  s.set("bottleneck", get_or(problem, "bottleneck", nullptr));
  s.set("shape_contract", get_or(problem, "shape_contract", nullptr));
  s.set("gain_direction", gain_direction(r));
  s.set("gain_pct", gain.get("pct"));
  s.set("gain_basis", gain.get("basis"));
  return s;
}

bool scope_matches(const json::Value &in, const json::Value &entry) {
  for (const char *key : {"vendor", "arch", "operator_family"}) {
    const auto &want = in.get(key);
    if (want.truthy() && !(entry.get(key) == want)) return false;
  }
  const auto &dsl = in.get("dsl");
  auto is_any = [](const json::Value &v) { return v.as_string() && *v.as_string() == "any"; };
  if (dsl.truthy() && !is_any(dsl)) {
    const auto &have = entry.get("dsl");
    if (!(have == dsl) && !is_any(have)) return false;
  }
  return true;
}

MatchResult find_candidates(const json::Value &incoming, const std::filesystem::path &live_root) {
  MatchResult out;
  const auto &scope = incoming.get("retrieval").get("scope");
  std::string key = incoming.string_or("episode_key");
  for (const auto &entry : store::live_entries(live_root)) {
    if (!scope_matches(scope, entry.get("retrieval").get("scope"))) continue;
    std::string rel = entry.string_or("path");
    if (rel.empty()) continue;
    json::Value rec;
    try {
      rec = store::read_record(live_root, rel);
    } catch (const std::exception &) {
      continue; // missing, unreadable, or a path that would leave the store
    }
    Candidate c{entry.string_or("id"), rel, std::move(rec)};
    if (!key.empty() && c.record.string_or("episode_key") == key) out.episode_key_matches.push_back(c.id);
    out.candidates.push_back(std::move(c));
  }
  return out;
}

json::Value match_report(const json::Value &incoming, const MatchResult &m) {
  json::Value out = json::Value::object();
  out.set("status", "ok");
  out.set("incoming", record_summary(incoming));
  out.set("candidates_count", static_cast<long long>(m.candidates.size()));
  out.set("episode_key_matches", json::Value::strings(m.episode_key_matches));
  json::Value list = json::Value::array();
  for (const auto &c : m.candidates) list.push_back(record_summary(c.record));
  out.set("candidates", list);
  return out;
}

json::Value match_error_report(const std::vector<std::string> &errors) {
  json::Value out = json::Value::object();
  out.set("status", "schema_error");
  out.set("errors", json::Value::strings(errors));
  out.set("incoming", nullptr);
  out.set("candidates", json::Value::array());
  return out;
}

} // namespace otm::admission
