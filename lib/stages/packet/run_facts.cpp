#include "packet/run_facts.hpp"

#include <algorithm>

#include "text/utf8.hpp"

namespace otm::packet {

RunFacts::RunFacts(const std::vector<json::Value> &version_rows) {
  for (const auto &r : version_rows) rows_.push_back(&r);
  std::stable_sort(rows_.begin(), rows_.end(), [](const json::Value *a, const json::Value *b) {
    return a->get("n").as_int().value_or(0) < b->get("n").as_int().value_or(0);
  });
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    position_.try_emplace(rows_[i]->string_or("version"), i);
    if (const auto *s = rows_[i]->get("expected_impact").as_string(); s && !text::strip(*s).empty())
      ++impacts_[text::folded(*s)];
  }
}

std::vector<const json::Value *> RunFacts::kept_between(const std::string &from, const std::string &to) const {
  std::vector<const json::Value *> out;
  auto a = position_.find(from), b = position_.find(to);
  if (a == position_.end() || b == position_.end()) return out;
  for (std::size_t i = a->second + 1; i < b->second; ++i) {
    const auto &r = *rows_[i];
    const auto *sha = r.get("sha").as_string();
    if (!sha || sha->empty() || r.get("reverted").truthy()) continue;
    out.push_back(rows_[i]);
  }
  return out;
}

std::size_t RunFacts::steps_stating(const json::Value &text) const {
  const auto *s = text.as_string();
  if (!s) return 0;
  auto it = impacts_.find(text::folded(*s));
  return it == impacts_.end() ? 0 : it->second;
}

} // namespace otm::packet
