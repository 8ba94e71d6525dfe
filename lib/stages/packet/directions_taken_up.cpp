#include "packet/directions_taken_up.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "error/error.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::packet {

namespace {

std::vector<std::string> content_words(std::string_view text) {
  static const std::set<std::string> stop = {"a",   "an",   "and", "are",  "as",   "at",   "be",  "by",
                                             "for", "from", "in",  "into", "is",   "it",   "its", "of",
                                             "on",  "or",   "per", "the",  "this", "that", "to",  "with"};
  static const text::Regex word("[A-Za-z0-9]+");
  std::vector<std::string> out;
  for (const auto &m : word.find_all(text)) {
    std::string w = text::to_lower(m[0]);
    if (stop.count(w)) continue;
    if (w.size() > 3 && w.back() == 's') w.pop_back();
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
  }
  return out;
}

bool same_word(const std::string &a, const std::string &b) {
  if (a == b) return true;
  const auto &shorter = a.size() < b.size() ? a : b;
  const auto &longer = a.size() < b.size() ? b : a;
  return shorter.size() >= 4 && longer.compare(0, shorter.size(), shorter) == 0;
}

std::string str(const json::Value &v) { return v.is_string() ? *v.as_string() : std::string(); }

// What a step did: its subject up to a "Next:" clause (which names the
// step's own next direction, not what it took up) and its change text.
std::string what_it_did(const workspace::VersionRow &row) {
  static const text::Regex next(R"((?i)\bnext\s*:)");
  std::string subject = row.subject;
  if (auto m = next.search(subject)) subject.resize(m->begin);
  return subject + "\n" + row.action_description.value_or("");
}

} // namespace

DirectionRule DirectionRule::from_json(const json::Value &section, std::string_view where) {
  auto bad = [&](const char *what) {
    return Error(ErrorKind::UnreadableInput, std::string(where) + ": directions_taken_up" + what);
  };
  if (!section.is_object()) throw bad(" must be an object");
  auto words = section.get("min_shared_words").as_int();
  auto share = section.get("min_share").as_number();
  if (!words || *words < 1) throw bad(".min_shared_words must be a positive integer");
  if (!share || *share <= 0 || *share > 1) throw bad(".min_share must be a number in (0, 1]");
  return DirectionRule{static_cast<std::size_t>(*words), *share};
}

bool takes_up(std::string_view direction, std::string_view step_text, const DirectionRule &rule) {
  auto wanted = content_words(direction), have = content_words(step_text);
  if (wanted.empty()) return false;
  std::size_t shared = 0;
  for (const auto &w : wanted)
    if (std::any_of(have.begin(), have.end(), [&](const std::string &h) { return same_word(w, h); })) ++shared;
  return shared >= rule.min_shared_words &&
         static_cast<double>(shared) >= rule.min_share * static_cast<double>(wanted.size());
}

namespace {

// The steps' words, indexed: each word with the rows (ascending) whose step
// text has it. Built once per run, so finding the step that takes up a
// direction costs a few lookups instead of re-reading every later step
// (quadratic in the trace's length).
class StepWords {
public:
  explicit StepWords(const std::vector<workspace::VersionRow> &rows) {
    std::map<std::string, std::vector<std::size_t>> by_word;
    for (std::size_t j = 0; j < rows.size(); ++j)
      for (auto &w : content_words(what_it_did(rows[j]))) by_word[std::move(w)].push_back(j);
    words_.assign(std::make_move_iterator(by_word.begin()), std::make_move_iterator(by_word.end()));
  }

  // Rows (ascending) whose step text takes up `direction` (takes_up()).
  std::vector<std::size_t> takers(std::string_view direction, const DirectionRule &rule) const {
    auto wanted = content_words(direction);
    std::vector<std::size_t> out;
    if (wanted.empty()) return out;
    std::map<std::size_t, std::size_t> shared; // row -> wanted words it has
    for (const auto &w : wanted) {
      std::set<std::size_t> rows;
      auto add = [&](const std::vector<std::size_t> &r) { rows.insert(r.begin(), r.end()); };
      // same_word: equal; or the shorter (>= 4 letters) a prefix of the longer.
      if (const auto *exact = find(w)) add(*exact);
      if (w.size() >= 4) {
        for (std::size_t n = 4; n < w.size(); ++n)
          if (const auto *shorter = find(w.substr(0, n))) add(*shorter);
        for (auto it = std::upper_bound(words_.begin(), words_.end(), w,
                                        [](const std::string &a, const Entry &e) { return a < e.first; });
             it != words_.end() && it->first.starts_with(w); ++it)
          add(it->second);
      }
      for (auto r : rows) ++shared[r];
    }
    for (const auto &[row, n] : shared)
      if (n >= rule.min_shared_words && static_cast<double>(n) >= rule.min_share * static_cast<double>(wanted.size()))
        out.push_back(row);
    return out;
  }

private:
  using Entry = std::pair<std::string, std::vector<std::size_t>>;
  const std::vector<std::size_t> *find(const std::string &w) const {
    auto it = std::lower_bound(words_.begin(), words_.end(), w,
                               [](const Entry &e, const std::string &a) { return e.first < a; });
    return it != words_.end() && it->first == w ? &it->second : nullptr;
  }
  std::vector<Entry> words_; // sorted by word
};

} // namespace

std::map<std::string, std::vector<json::Value>> directions_taken_up(const std::vector<workspace::VersionRow> &rows,
                                                                    const DirectionRule &rule) {
  std::map<std::string, std::vector<json::Value>> out;
  std::optional<StepWords> steps;
  std::map<std::string, std::vector<std::size_t>> takers; // per distinct direction text
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto *list = rows[i].open_directions.as_array();
    if (!list) continue;
    for (const auto &d : *list) {
      if (!d.is_object() || str(d.get("direction")).empty()) continue;
      if (!steps) steps.emplace(rows);
      std::string direction = str(d.get("direction"));
      auto it = takers.find(direction);
      if (it == takers.end()) it = takers.emplace(direction, steps->takers(direction, rule)).first;
      auto j = std::upper_bound(it->second.begin(), it->second.end(), i);
      if (j == it->second.end()) continue;
      json::Value e = json::Value::object();
      e.set("direction", d.get("direction"));
      e.set("rationale", d.get("rationale"));
      out[rows[*j].version].push_back(std::move(e));
    }
  }
  return out;
}

} // namespace otm::packet
