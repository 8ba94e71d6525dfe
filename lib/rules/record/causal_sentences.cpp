#include "record/causal_sentences.hpp"

#include "error/error.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"

namespace otm::record {

namespace {

std::string escaped(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

} // namespace

CausalRule CausalRule::from_json(const json::Value &section, std::string_view where) {
  auto bad = [&](const std::string &what) {
    return Error(ErrorKind::UnreadableInput, std::string(where) + ": causal_sentences" + what);
  };
  if (!section.is_object()) throw bad(" must be an object");
  const auto *markers = section.get("markers").as_array();
  if (!markers) throw bad(".markers must be a list of strings");
  CausalRule r;
  std::string alternation;
  for (const auto &m : *markers) {
    const auto *s = m.as_string();
    if (!s || text::strip(*s).empty()) throw bad(".markers must be a list of non-empty strings");
    r.markers_.emplace_back(text::strip(*s));
    alternation += (alternation.empty() ? "" : "|") + escaped(r.markers_.back());
  }
  // Phrases of the run's own bookkeeping ("reverted", "tried earlier"): a
  // sentence holding one tells the run's history, not a cause. Optional (an
  // override written before the key existed still reads).
  std::string bookkeeping;
  if (const auto &nc = section.get("not_causal"); !nc.is_null()) {
    const auto *list = nc.as_array();
    if (!list) throw bad(".not_causal must be a list of strings");
    for (const auto &m : *list) {
      const auto *t = m.as_string();
      if (!t || text::strip(*t).empty()) throw bad(".not_causal must be a list of non-empty strings");
      bookkeeping += (bookkeeping.empty() ? "" : "|") + escaped(std::string(text::strip(*t)));
    }
  }
  // Words that compare a state before and after ("drop from 41% to 37%",
  // "one fewer predicate"): a capture's conclusion that holds one speaks of
  // the change, not only of the kernel's state. Optional, as not_causal.
  std::string comparison;
  if (const auto &cm = section.get("comparisons"); !cm.is_null()) {
    const auto *list = cm.as_array();
    if (!list) throw bad(".comparisons must be a list of strings");
    for (const auto &m : *list) {
      const auto *t = m.as_string();
      if (!t || text::strip(*t).empty()) throw bad(".comparisons must be a list of non-empty strings");
      comparison += (comparison.empty() ? "" : "|") + escaped(std::string(text::strip(*t)));
    }
  }
  auto min = section.get("min_chars").as_int();
  if (!min || *min < 0) throw bad(".min_chars must be a non-negative integer");
  r.min_chars_ = static_cast<std::size_t>(*min);
  // Whole words of prose: not a name of code (`tl.reduce`, `reduce_max(`).
  if (!alternation.empty())
    r.regex_ = std::make_shared<const text::Regex>("(?i)(?<![\\w.])(?:" + alternation + ")(?![\\w(])");
  if (!bookkeeping.empty())
    r.bookkeeping_ = std::make_shared<const text::Regex>("(?i)(?<![\\w.])(?:" + bookkeeping + ")(?![\\w(])");
  if (!comparison.empty())
    r.comparison_ = std::make_shared<const text::Regex>("(?i)(?<![\\w.])(?:" + comparison + ")(?![\\w(])");
  return r;
}

bool CausalRule::compares(std::string_view text) const { return comparison_ && comparison_->contains(text); }

bool CausalRule::is_causal(std::string_view sentence) const {
  return regex_ && text::code_points(text::strip(sentence)) >= min_chars_ && regex_->contains(sentence) &&
         !(bookkeeping_ && bookkeeping_->contains(sentence));
}

std::string CausalRule::first_marker(std::string_view text) const {
  if (!regex_) return {};
  auto m = regex_->search(text);
  return m ? std::string((*m)[0]) : std::string();
}

std::vector<std::string> CausalRule::causal_sentences(std::string_view text) const {
  static const text::Regex spaces(R"(\s+)");
  std::vector<std::string> out;
  for (const auto &s : text::sentences(text))
    if (is_causal(s)) out.push_back(spaces.replace(s, " "));
  return out;
}

} // namespace otm::record
