// What a packet says about the run around its own step, read once per
// packet run from the version rows (issue 25):
//   * the kept steps between a strategy's best-so-far and its own step,
//     whose code the strategy's diff also holds (a span credited to its
//     last step is the wrong record);
//   * how many steps of the run state each expected impact, so a sentence
//     the producer's template repeats on every step is known for one.
//
//   RunFacts facts(version_rows);
//   facts.kept_between("v3", "v6")          // rows of v4, v5: committed, not reverted, in order
//   facts.steps_stating(row.get("expected_impact"))   // 106 of ...
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "json/value.hpp"

namespace otm::packet {

class RunFacts {
public:
  RunFacts() = default;
  explicit RunFacts(const std::vector<json::Value> &version_rows);
  // The rows strictly after version `from` and before `to` (by their `n`)
  // that have a commit and were not reverted, oldest first; empty when
  // either version is unknown.
  std::vector<const json::Value *> kept_between(const std::string &from, const std::string &to) const;
  // How many steps state `text` (text::folded alike) as their
  // expected impact; 0 for a non-string.
  std::size_t steps_stating(const json::Value &text) const;

private:
  std::vector<const json::Value *> rows_;                 // by n
  std::unordered_map<std::string, std::size_t> position_; // version -> index in rows_
  std::unordered_map<std::string, std::size_t> impacts_;  // normalised expected impact -> steps
};

} // namespace otm::packet
