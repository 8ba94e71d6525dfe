// The run's stock sentences: an explanation its step records give on many
// steps of different kinds (kit 45: "register spills once BLOCK_KV *
// HEAD_DIM tiles exceed ~64 regs/thread", a pitfall the run files on a
// tile shrink, a num_warps move and a split count alike; "the reduction
// tail is visible in the timeline", the rationale of a dozen directions).
// Such a text says what the run's template says, not why this step's lever
// paid or failed. The texts counted are each step's expected impact, its
// pitfalls' message, explanation and fix (both vintages), and its open
// directions' rationales; a step's kind is its action category, else its
// change text. One text repeated on steps of one kind (five bf16
// accumulation attempts, each "8 mantissa bits over a long sum") is no
// template: the same lever failed for the same reason.
//
//   StockTexts stock(rows);
//   stock.count_of("atomic contention on the dgamma/dbeta partials.")  // {6 steps, 5 kinds}
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "workspace/version_row.hpp"

namespace otm::packet {

class StockTexts {
public:
  struct Count {
    std::size_t steps = 0, kinds = 0;
    // Stated on more than one step, of more than one kind: worth telling
    // the drafter, whose `boilerplate.template_min_steps` decides.
    bool repeated_across_kinds() const { return steps > 1 && kinds > 1; }
  };
  StockTexts() = default;
  explicit StockTexts(const std::vector<workspace::VersionRow> &rows);
  // The count of a text (text::folded alike); {0, 0} for one no step states.
  Count count_of(const std::string &text) const;
  // The explanation texts of one step, in the order above, each once.
  static std::vector<std::string> explanations_of(const workspace::VersionRow &row);

private:
  std::unordered_map<std::string, Count> counts_; // folded text -> count
};

} // namespace otm::packet
