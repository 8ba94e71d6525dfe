// Test support: issue 10's claim check of one staged strategy against its
// packet, independent of the drafter's own reading (its own name
// extraction; only the shared lexer's rule of what runs is reused):
//   * the packet's diff and the record's snippet change a line that runs;
//   * every code-like name of the change text (`BLOCK_SIZE`, `num_warps`,
//     `.cs`, `ld.global.nc.v4.f32`) that a running changed line of the diff
//     holds is held by a running changed line of the snippet;
//   * the mechanism is non-empty and its start is text of the packet.
#pragma once

#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "code/source_lexer.hpp"
#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::testsupport {

struct ClaimCheck {
  std::vector<std::string> problems;
  std::set<std::string> named; // the change text's names the diff changes (all quoted when no problem)
  bool measured = false;       // worth.gain.basis is measured
};

inline std::set<std::string> code_names(const std::string &text) {
  static const text::Regex token(R"(\.?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)");
  std::set<std::string> out;
  for (const auto &m : token.find_all(text)) {
    std::string t(m[0]);
    std::size_t upper = 0;
    for (char c : t) upper += c >= 'A' && c <= 'Z';
    if (t.find('_') != std::string::npos || t.find('.') != std::string::npos || upper >= 2) out.insert(t);
  }
  return out;
}

inline bool holds_token(const std::string &line, const std::string &name) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (auto pos = line.find(name); pos != std::string::npos; pos = line.find(name, pos + 1)) {
    bool before = pos == 0 || name[0] == '.' || !ident(line[pos - 1]);
    bool after = pos + name.size() >= line.size() || !ident(line[pos + name.size()]);
    if (before && after) return true;
  }
  return false;
}

// The changed lines of a diff (or of a snippet: a hunk body) that run.
inline std::vector<std::string> running_changes(const std::string &diff) {
  std::string text = diff.starts_with("diff ") || diff.starts_with("@@") ? diff : "@@ -1 +1 @@\n" + diff;
  std::vector<std::string> out;
  for (const auto &l : code::lex_diff(text))
    if ((l.role == code::DiffLine::Role::Added || l.role == code::DiffLine::Role::Removed) &&
        code::is_executable(l.kind))
      out.emplace_back(l.text);
  return out;
}

inline void strings_in(const json::Value &v, std::string &out) {
  if (const auto *s = v.as_string()) out += *s + " ";
  if (const auto *a = v.as_array())
    for (const auto &e : *a) strings_in(e, out);
  if (const auto *o = v.as_object())
    for (const auto &[k, e] : *o) strings_in(e, out);
}

inline std::string squeezed(const std::string &s) {
  static const text::Regex spaces(R"(\s+)");
  return spaces.replace(s, " ");
}

inline ClaimCheck check_claims(const json::Value &record, const json::Value &packet, const std::string &code) {
  ClaimCheck c;
  const auto &pl = record.get("payload");
  auto diff = running_changes(code);
  auto snippet = running_changes(pl.get("implementation").string_or("snippet"));
  if (diff.empty()) c.problems.push_back("the packet's diff changes no line that runs");
  if (snippet.empty()) c.problems.push_back("the snippet changes no line that runs");
  for (const auto &name : code_names(pl.string_or("change"))) {
    bool in_diff = false, quoted = false;
    for (const auto &l : diff) in_diff = in_diff || holds_token(l, name);
    for (const auto &l : snippet) quoted = quoted || holds_token(l, name);
    if (!in_diff) continue;
    c.named.insert(name);
    if (!quoted) c.problems.push_back("the change text names " + name + " but the snippet does not change it");
  }
  c.measured = record.get("worth").get("gain").string_or("basis") == "measured";
  auto mech = pl.string_or("mechanism");
  // What otm adds of the code to a mechanism that only labels the step
  // (distill::constructs_changed) is its reading, not the packet's words.
  // (The label is closed with a full stop before it.)
  if (auto at = mech.find(" In the code, the change "); at != std::string::npos) {
    mech.resize(at);
    if (mech.ends_with('.')) mech.pop_back();
  }
  std::string said;
  strings_in(packet.get("agent_facing"), said);
  if (mech.empty())
    c.problems.push_back("empty mechanism");
  else if (squeezed(said).find(squeezed(mech).substr(0, 40)) == std::string::npos)
    c.problems.push_back("the mechanism is not the packet's words: " + mech);
  return c;
}

} // namespace otm::testsupport
