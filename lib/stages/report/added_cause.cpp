#include "report/added_cause.hpp"

#include <set>

#include "levers/lever_vocabulary.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::report {

namespace {

// Function words that carry no cause of their own.
bool is_function_word(const std::string &lower) {
  static const std::set<std::string, std::less<>> words = {
      "the",  "and",   "for",  "with",  "from",  "into",    "onto", "that",  "this",  "these", "those", "each",
      "than", "then",  "per",  "one",   "its",   "are",     "was",  "were",  "has",   "have",  "had",   "not",
      "but",  "all",   "any",  "can",   "now",   "only",    "also", "when",  "which", "where", "while", "over",
      "out",  "off",   "more", "less",  "fewer", "instead", "same", "their", "there", "every", "does",  "done",
      "use",  "uses",  "used", "using", "step",  "steps",   "here", "they",  "them",  "what",  "who",   "how",
      "why",  "our",   "you",  "your",  "his",   "her",     "been", "being", "will",  "would", "could", "should",
      "may",  "might", "must", "such",  "very",  "much",    "many", "some",  "most",  "other"};
  return words.count(lower) != 0;
}

// A word's comparison key: lower case, a plural "s" dropped, its first six
// characters.
std::string key_of(std::string_view word) {
  std::string k = text::to_lower(word);
  if (k.size() > 3 && k.back() == 's' && k[k.size() - 2] != 's') k.pop_back();
  if (k.size() > 6) k.resize(6);
  return k;
}

const text::Regex &word_regex() {
  static const text::Regex word(R"([A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*)");
  return word;
}

std::vector<std::string> content_words(std::string_view text) {
  std::vector<std::string> out;
  for (const auto &m : word_regex().find_all(text)) {
    std::string w(m[0]);
    if (w.size() < 3 || is_function_word(text::to_lower(w))) continue;
    out.push_back(std::move(w));
  }
  return out;
}

} // namespace

AddedCause added_cause(std::string_view mechanism, std::string_view what_was_done, const record::CausalRule &causal) {
  AddedCause out;
  std::set<std::string> done, seen;
  for (const auto &w : content_words(levers::claim_part(what_was_done))) done.insert(key_of(w));
  for (const auto &w : content_words(mechanism)) {
    auto k = key_of(w);
    if (done.count(k) || !seen.insert(k).second) continue;
    out.new_words.push_back(w);
  }
  out.connective = causal.first_marker(mechanism);
  out.adds = out.new_words.size() >= kMinNewWords || (!out.new_words.empty() && !out.connective.empty());
  return out;
}

} // namespace otm::report
