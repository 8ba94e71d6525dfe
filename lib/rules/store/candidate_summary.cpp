#include "store/candidate_summary.hpp"

#include "store/record_view.hpp"
#include "json/write.hpp"

namespace otm::store {

namespace {
json::Value get_or(const json::Value &obj, std::string_view key, json::Value fallback) {
  const auto *v = obj.find(key);
  return v ? *v : fallback;
}
} // namespace

std::string gain_direction(const json::Value &r) {
  std::string type = RecordView::shown(r).type.value_or("");
  if (type == "anti-strategy") return "negative";
  const auto &pct = r.get("worth").get("gain").get("pct");
  if (auto x = pct.as_number()) return *x > 0 ? "positive" : "negative";
  if (type == "strategy") return "positive";
  return "unknown";
}

json::Value candidate_summary(const json::Value &r) {
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

std::string candidate_summary_text(const json::Value &record) { return json::to_line(candidate_summary(record)); }

} // namespace otm::store
