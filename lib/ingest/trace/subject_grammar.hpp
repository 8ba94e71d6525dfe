// The commit-message grammar of a trace (spec trace-format.md §2.2-§2.3):
// the verdict, the numbers a subject quotes, the dead-end list and the next
// direction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace otm::trace {

struct CommitFields {
  bool reverted = false;
  std::optional<double> before_us, after_us, pct, baseline_us;
  std::optional<std::string> deadend_blob;
  std::optional<std::vector<std::string>> deadend_items;
  std::optional<std::int64_t> deadend_streak;
  std::optional<std::string> next_direction;
  // What the subject says was changed, after its verdict and figures:
  // "v108: kept -> 84.5→82.0µs (-3.0%) BLOCK_N 256->128" -> "BLOCK_N
  // 256->128". The change text of a step with no readable step record.
  std::optional<std::string> stated_change;
};

// `subject` is git's %s, `body` the trimmed %b.
//  - reverted: the subject says `reverted` or `dead-end recorded`; or,
//    when the subject does not say `kept`, a body line starts with
//    `dead-end recorded` (docs/differences.md);
//  - the dead-end list and `Next:` end with the subject when they start in
//    it, and with their paragraph when they start in the body.
CommitFields parse_commit_message(std::string_view subject, std::string_view body);

// §2.3, with abbreviations (e.g., i.e., vs., cf., approx.) not ending an
// item.
std::vector<std::string> split_deadend_list(std::string_view raw);

} // namespace otm::trace
