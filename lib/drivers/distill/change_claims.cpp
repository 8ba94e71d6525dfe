#include "distill/change_claims.hpp"

#include "text/regex.hpp"

namespace otm::distill {

// The cost of applying a change, from the lines it changes that run (the
// lexer's rule: comments, docstrings, blank lines and version stamps do not
// count).
json::Value cost_of(const DiffReading &diff) {
  std::size_t running = diff.running_lines(), hunks = 0;
  for (const auto &h : diff.hunks)
    if (h.running_lines()) ++hunks;
  json::Value cost = json::Value::object();
  const char *scope = "kernel-rewrite", *risk = "med";
  if (running <= 2 && hunks == 1)
    scope = "one-line", risk = "low";
  else if (running >= kArchitectureLines)
    scope = "architecture", risk = "high";
  cost.set("edit_scope", scope);
  cost.set("risk", risk);
  // No count in the text: a number the packet does not hold is a fabrication.
  cost.set("risk_basis", "derived by otm-draft from how many changed lines run and in how many hunks (comments, "
                         "docstrings, blank lines and version stamps not counted), not judged");
  return cost;
}

// A function the diff adds and nothing calls that the change text describes
// (a word of its name, four letters or more, is a word of the text).
std::optional<std::string> described_dead_code(const DiffReading &diff, const std::string &change) {
  static const text::Regex part("[A-Za-z][a-z0-9]{3,}|[A-Z0-9]{4,}");
  for (const auto &name : diff.dead_definitions)
    for (const auto &m : part.find_all(name)) {
      text::Regex word("(?i)\\b" + std::string(m[0]) + "\\b");
      if (word.contains(change)) return name;
    }
  return std::nullopt;
}

// Accepts a matched retrieval term unless it is a code name the diff does
// not change.
TermVocabulary::Accept changed_by(const DiffReading &diff) {
  return [&diff](std::string_view term) { return !is_code_name(term) || changes_name(diff, term); };
}

} // namespace otm::distill
