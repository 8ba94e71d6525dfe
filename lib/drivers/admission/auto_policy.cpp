#include "admission/actions.hpp"

namespace otm::admission {

namespace {
// +1 positive, -1 negative, 0 unknown or flat.
int direction(const json::Value &r) {
  std::string type = r.string_or("type");
  if (type == "anti-strategy") return -1;
  if (auto pct = r.get("worth").get("gain").get("pct").as_number()) return *pct > 0 ? 1 : (*pct < 0 ? -1 : 0);
  return type == "strategy" ? 1 : 0;
}
} // namespace

bool directions_contradict(const json::Value &a, const json::Value &b) { return direction(a) * direction(b) < 0; }

AutoDecision decide_auto(const json::Value &incoming, const MatchResult &match) {
  std::string id = incoming.string_or("id");
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
    if (directions_contradict(incoming, c->record))
      return {"conflict", c->id, "exact episode_key match " + c->id + " points the opposite way"};
  return {"confirm", same_key.front()->id, "exact episode_key match " + same_key.front()->id + " points the same way"};
}

} // namespace otm::admission
