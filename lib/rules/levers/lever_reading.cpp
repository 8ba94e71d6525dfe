#include "levers/lever_reading.hpp"

#include <algorithm>

#include "levers/lever_settings.hpp"
#include "text/regex.hpp"

namespace otm::levers {

bool changes_lever(const diff::ChangedLine &line, const std::vector<std::string> &levers,
                   const LeverVocabulary &vocabulary, std::string_view dsl) {
  if (line.dead || line.moved) return false;
  for (const auto &l : levers)
    if (vocabulary.in_code(l, line.changed, dsl) || (!line.owner.empty() && vocabulary.in_code(l, line.owner, dsl)) ||
        (!line.feeds.empty() && vocabulary.in_code(l, line.feeds, dsl)))
      return true;
  return false;
}

std::vector<std::string> levers_set_in(std::string_view text, const LeverVocabulary &vocabulary, std::string_view dsl) {
  static const text::Regex assignment(R"(([A-Za-z_][\w.]*)\s*(?:=|->|\x{2192})\s*[-\w."'])");
  std::vector<std::string> out;
  for (const auto &m : assignment.find_all(text))
    for (auto &l : vocabulary.levers_in_code(m[1], dsl))
      if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(std::move(l));
  return out;
}

LeverReading read_levers(const diff::DiffReading &diff, std::string_view change, const LeverVocabulary &levers,
                         std::string_view dsl) {
  LeverReading r;
  // Named in prose, or set by its code name before the cause clause
  // ("ROWS=2 spills"; not "a multiple of BLOCK_N", which only mentions it).
  r.claimed = levers.claimed_in(change);
  for (auto &l : levers_set_in(claim_of(change), levers, dsl))
    if (std::find(r.claimed.begin(), r.claimed.end(), l) == r.claimed.end()) r.claimed.push_back(std::move(l));
  for (const auto &l : r.claimed) {
    if (!levers.checkable(l, dsl)) continue;
    r.checkable.push_back(l);
    bool realised = false, passed_through = false;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running) {
        if (changes_lever(c, {l}, levers, dsl)) realised = true;
        if (!c.dead && levers.in_code(l, c.code, dsl)) passed_through = true;
      }
    // A lever the claim names only as part of a line it quotes, which the
    // change passes through unchanged (`[num_warps]` beside the edited
    // `BlockedLayout([2], ...)`), is not claimed as changed.
    if (realised)
      r.realised.push_back(l);
    else if (!passed_through)
      r.missing.push_back(l);
  }
  return r;
}

bool left_in_diff(const diff::DiffReading &diff, std::string_view step_change, const LeverVocabulary &levers,
                  std::string_view dsl) {
  auto theirs = read_levers(diff, step_change, levers, dsl);
  return theirs.checkable.empty() || !theirs.realised.empty();
}

} // namespace otm::levers
