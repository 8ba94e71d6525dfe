#include "admission/match.hpp"

#include "record/store_layout.hpp"
#include "store/index_keys.hpp"
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

bool scope_matches(const json::Value &in, const json::Value &entry) { return store::scope_keeps(in, entry); }

namespace {
void add_candidate(MatchResult &out, const std::filesystem::path &live_root, std::string id, std::string rel,
                   const std::string &key, const config::Limits &limits) {
  if (rel.empty()) return;
  json::Value rec;
  try {
    rec = store::read_record(live_root, rel, limits);
  } catch (const std::exception &) {
    return; // missing, unreadable, or a path that would leave the store
  }
  Candidate c{std::move(id), std::move(rel), std::move(rec)};
  if (!key.empty() && c.record.string_or("episode_key") == key) out.episode_key_matches.push_back(c.id);
  out.candidates.push_back(std::move(c));
}
} // namespace

MatchResult find_candidates(const json::Value &incoming, const std::filesystem::path &live_root,
                            const config::Limits &limits) {
  MatchResult out;
  const auto &scope = incoming.get("retrieval").get("scope");
  std::string key = incoming.string_or("episode_key");
  // The candidates by scope from the keys index: only their records are
  // read. Without an index (or with one that cannot be read) the entries
  // live_entries builds by walking records/, as before.
  std::optional<store::KeysIndex> keys;
  try {
    keys = store::KeysIndex::open(live_root, limits);
  } catch (const std::exception &) {
    keys.reset();
  }
  if (keys && !keys->empty()) {
    for (auto &row : keys->in_scope(scope))
      add_candidate(out, live_root, std::move(row.id), std::move(row.path), key, limits);
    return out;
  }
  for (const auto &entry : store::live_entries(live_root, limits)) {
    if (!scope_matches(scope, entry.get("retrieval").get("scope"))) continue;
    add_candidate(out, live_root, entry.string_or("id"), entry.string_or("path"), key, limits);
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
