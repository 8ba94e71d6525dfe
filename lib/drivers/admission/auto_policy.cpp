#include "admission/actions.hpp"

#include "store/record_view.hpp"
#include "json/parse.hpp"

namespace otm::admission {

namespace {
// +1 positive, -1 negative, 0 unknown or flat: from a record's type and
// worth.gain.pct (a summary carries both, as type and gain_pct).
int direction(const std::string &type, const json::Value &pct) {
  if (type == "anti-strategy") return -1;
  if (auto x = pct.as_number()) return *x > 0 ? 1 : (*x < 0 ? -1 : 0);
  return type == "strategy" ? 1 : 0;
}
int direction(const json::Value &r) {
  return direction(store::RecordView::shown(r).type.value_or(""), r.get("worth").get("gain").get("pct"));
}
int summary_direction(std::string_view summary) {
  json::Value s = json::parse(summary, "a candidate's summary");
  return direction(s.string_or("type"), s.get("gain_pct"));
}
} // namespace

bool directions_contradict(const json::Value &a, const json::Value &b) { return direction(a) * direction(b) < 0; }

AutoDecision decide_auto(const json::Value &incoming, const MatchResult &match) {
  std::string id = store::RecordView::shown(incoming).id.value_or("");
  if (match.candidates.empty()) return {"insert", "", "no live record shares the incoming record's scope"};
  std::vector<const Candidate *> same_key;
  for (const auto &key_id : match.episode_key_matches)
    for (const auto &c : match.candidates)
      if (c.id == key_id && c.id != id) same_key.push_back(&c);
  if (same_key.empty())
    return {"insert", "",
            std::to_string(match.candidates.size()) +
                " same-scope candidate(s), none with the incoming episode_key (the only equivalence the policy "
                "decides without a reviewer)"};
  for (const auto *c : same_key)
    if (direction(incoming) * summary_direction(c->summary) < 0) {
      std::string target(c->id);
      return {"conflict", target, "exact episode_key match " + target + " points the opposite way"};
    }
  std::string target(same_key.front()->id);
  return {"confirm", target, "exact episode_key match " + target + " points the same way"};
}

} // namespace otm::admission
