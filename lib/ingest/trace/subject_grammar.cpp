#include "trace/subject_grammar.hpp"

#include <cstdlib>

#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::trace {
namespace {

using text::Regex;

double to_double(std::string_view s) { return std::strtod(std::string(s).c_str(), nullptr); }

// §2.3 step 1: cut at the first sentence boundary. A period after e.g.,
// i.e., vs., cf. or approx. is not a boundary.
std::string sentence_cut(std::string_view s) {
  static const Regex boundary("(?<!\\b[eE]\\.[gG])(?<!\\b[iI]\\.[eE])(?<!\\b[vV][sS])(?<!\\b[cC][fF])"
                              "(?<!\\b[aA][pP][pP][rR][oO][xX])\\.\\s+(?=[A-Za-z])");
  auto [head, tail] = boundary.split_once(s);
  (void)tail;
  return std::string(text::rstrip_chars(head, ". "));
}

// The rest of the body paragraph that starts at `from`.
std::string_view paragraph_from(std::string_view body, std::size_t from) {
  static const Regex blank("\\n[ \\t\\r]*\\n");
  auto rest = body.substr(from);
  auto m = blank.search(rest);
  return m ? rest.substr(0, m->begin) : rest;
}

} // namespace

std::vector<std::string> split_deadend_list(std::string_view raw) {
  std::string first_sentence = sentence_cut(raw);
  std::vector<std::string> items;
  std::string cur;
  int depth = 0;
  auto finish = [&] {
    items.emplace_back(text::strip(cur));
    cur.clear();
  };
  for (char c : first_sentence) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      finish();
      continue;
    }
    cur.push_back(c);
  }
  if (!std::string(text::strip(cur)).empty()) finish();
  std::vector<std::string> out;
  for (auto &item : items) {
    std::string cut = sentence_cut(item);
    if (text::code_points(cut) > 3) out.push_back(std::move(cut));
  }
  return out;
}

CommitFields parse_commit_message(std::string_view subject, std::string_view body) {
  static const Regex revert("(?i)\\breverted\\b|\\bdead-end recorded\\b");
  static const Regex kept("(?i)\\bkept\\b");
  static const Regex body_marker("(?im)^[ \\t]*dead-end recorded\\b");
  static const Regex before_after("(?i)(\\d+(?:\\.\\d+)?)\\s*(?:->|\\x{2192}|=>)\\s*(\\d+(?:\\.\\d+)?)\\s*(?:us|"
                                  "\\x{00b5}s|\\x{03bc}s)");
  static const Regex pct("(?i)\\(([-+]?\\d+(?:\\.\\d+)?)\\s*%");
  static const Regex baseline("(?i)no improvement over\\s+(\\d+(?:\\.\\d+)?)\\s*(?:us|\\x{00b5}s|\\x{03bc}s)");
  static const Regex deadend("(?is)dead-end recorded:\\s*(.+?)(?:\\s*Next:|\\z)");
  static const Regex streak("(?i)(\\d+)(?:st|nd|rd|th)\\s+consecutive dead-end");
  static const Regex next("(?is)\\bNext:\\s*(.+)\\z");

  CommitFields f;
  f.reverted = revert.contains(subject) || (!kept.contains(subject) && body_marker.contains(body));

  std::string message = std::string(subject) + "\n" + std::string(body);
  if (auto m = before_after.search(message)) {
    f.before_us = to_double((*m)[1]);
    f.after_us = to_double((*m)[2]);
  }
  if (auto m = pct.search(message)) f.pct = to_double((*m)[1]);
  if (auto m = baseline.search(message)) f.baseline_us = to_double((*m)[1]);
  if (auto m = streak.search(message)) f.deadend_streak = std::strtoll(std::string((*m)[1]).c_str(), nullptr, 10);

  // The list and Next: are bounded by the part of the message they start in.
  static const Regex deadend_start("(?i)dead-end recorded:");
  static const Regex next_start("\\bNext:");
  auto bounded = [&](const Regex &start) -> std::optional<std::string_view> {
    if (auto m = start.search(subject)) return subject.substr(m->begin);
    if (auto m = start.search(body)) return paragraph_from(body, m->begin);
    return std::nullopt;
  };
  if (auto part = bounded(deadend_start)) {
    if (auto m = deadend.search(*part)) {
      f.deadend_blob = std::string(text::strip((*m)[1]));
      f.deadend_items = split_deadend_list((*m)[1]);
    }
  }
  if (auto part = bounded(next_start)) {
    if (auto m = next.search(*part)) f.next_direction = std::string(text::strip((*m)[1]));
  }
  static const Regex stated(
      "(?i)^\\s*(?:v\\d+\\s*:\\s*)?(?:kept|reverted)\\b\\D{0,8}\\d+(?:\\.\\d+)?\\s*(?:->|\\x{2192}|=>)\\s*"
      "\\d+(?:\\.\\d+)?\\s*(?:us|\\x{00b5}s|\\x{03bc}s)\\s*(?:\\([^()]*\\)\\s*)?(\\S.*?)\\s*$");
  // "no improvement over 60.1us, 12th consecutive dead-end" says how the
  // step ended, not what it changed.
  static const Regex no_change("(?i)^no improvement\\b|\\bdead-end\\b");
  if (auto m = stated.search(subject); m && m->has(1) && !no_change.contains((*m)[1]))
    f.stated_change = std::string((*m)[1]);
  return f;
}

} // namespace otm::trace
