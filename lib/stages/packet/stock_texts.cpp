#include "packet/stock_texts.hpp"

#include <algorithm>
#include <set>

#include "text/utf8.hpp"
#include "trace/step_record.hpp"

namespace otm::packet {

std::vector<std::string> StockTexts::explanations_of(const workspace::VersionRow &row) {
  std::vector<std::string> out;
  auto add = [&](const json::Value &v) {
    const auto *s = v.as_string();
    if (s && !text::strip(*s).empty() && std::find(out.begin(), out.end(), *s) == out.end()) out.push_back(*s);
  };
  if (row.expected_impact) add(json::Value(*row.expected_impact));
  if (const auto *list = row.pitfalls.as_array())
    for (const auto &raw : *list) {
      const auto e = trace::normalise_pitfall(raw);
      for (const char *k : {"pitfall", "explanation", "fix"}) add(e.get(k));
    }
  if (const auto *list = row.open_directions.as_array())
    for (const auto &d : *list) add(d.get("rationale"));
  return out;
}

StockTexts::StockTexts(const std::vector<workspace::VersionRow> &rows) {
  std::unordered_map<std::string, std::set<std::string>> kinds;
  for (const auto &row : rows) {
    const std::string kind = row.action_category && !text::strip(*row.action_category).empty()
                                 ? text::folded(*row.action_category)
                                 : text::folded(row.action_description.value_or(row.version));
    for (const auto &t : explanations_of(row)) {
      const std::string key = text::folded(t);
      ++counts_[key].steps;
      kinds[key].insert(kind);
    }
  }
  for (auto &[key, c] : counts_) c.kinds = kinds[key].size();
}

StockTexts::Count StockTexts::count_of(const std::string &text) const {
  auto it = counts_.find(text::folded(text));
  return it == counts_.end() ? Count{} : it->second;
}

} // namespace otm::packet
