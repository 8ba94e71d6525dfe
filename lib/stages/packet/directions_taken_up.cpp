#include "packet/directions_taken_up.hpp"

#include <algorithm>
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
std::string what_it_did(const json::Value &row) {
  static const text::Regex next(R"((?i)\bnext\s*:)");
  std::string subject = str(row.get("subject"));
  if (auto m = next.search(subject)) subject.resize(m->begin);
  return subject + "\n" + str(row.get("action_description"));
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

std::map<std::string, std::vector<json::Value>> directions_taken_up(const std::vector<json::Value> &rows,
                                                                    const DirectionRule &rule) {
  std::map<std::string, std::vector<json::Value>> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto *list = rows[i].get("open_directions").as_array();
    if (!list) continue;
    for (const auto &d : *list) {
      if (!d.is_object() || str(d.get("direction")).empty()) continue;
      for (std::size_t j = i + 1; j < rows.size(); ++j) {
        std::string step = what_it_did(rows[j]);
        if (!takes_up(str(d.get("direction")), step, rule)) continue;
        json::Value e = json::Value::object();
        e.set("direction", d.get("direction"));
        e.set("rationale", d.get("rationale"));
        out[rows[j].string_or("version")].push_back(std::move(e));
        break;
      }
    }
  }
  return out;
}

} // namespace otm::packet
