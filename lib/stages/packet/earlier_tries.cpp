#include "packet/earlier_tries.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "ladder/noise.hpp"
#include "packet/changed_lines.hpp"
#include "packet/kernel_code.hpp"
#include "packet/run_facts.hpp"
#include "record/established_fact.hpp"
#include "workspace/agent_facing.hpp"

namespace otm::packet {

namespace {

// Whether the strategy's edits (`mine`) make at least half of an
// attempt's (and one): its added lines, or for an attempt that only
// removes, its removed lines. Removing the same line is no same change
// when each writes another in its place (kit 32: a port to Gluon and an
// exp2 attempt both remove `e = tl.exp(x - m)`).
bool makes_most_of(const ChangedLines &mine, const ChangedLines &attempt) {
  const bool adds = !attempt.added.empty();
  const auto &its = adds ? attempt.added : attempt.removed;
  const auto &ours = adds ? mine.added : mine.removed;
  std::size_t same = 0;
  for (const auto &x : its) same += ours.count(x);
  return same > 0 && 2 * same >= its.size();
}

} // namespace

std::vector<std::string> tries_of_this_change(const Context &ctx, const std::string &version,
                                              const std::vector<std::string> &stated) {
  std::set<std::string> found(stated.begin(), stated.end());
  const RunFacts *facts = ctx.facts;
  auto in_run_order = [&] {
    std::vector<std::string> out(found.begin(), found.end());
    if (facts)
      std::stable_sort(out.begin(), out.end(), [&](const std::string &a, const std::string &b) {
        return facts->position_of(a) < facts->position_of(b);
      });
    return out;
  };
  if (!ctx.repo || !ctx.commits || !facts) return in_run_order();
  auto own =
      own_change(*ctx.repo, ctx.meta.kernel_file, *ctx.commits, version, ctx.diffs, facts->code_made_on(version));
  if (!own || !own->executable) return in_run_order();
  const auto mine = changed_lines(*own, ChangedLines::Running | ChangedLines::NotMoved);
  if (mine.size() == 0) return in_run_order();
  for (const auto *row : facts->reverted_before(version)) {
    const std::string &v = row->version;
    if (found.count(v)) continue;
    // Read as a failed attempt's diff is (version_diff): to its latest
    // commit that runs differently from the code it was made on, not to a
    // revert that restored it.
    workspace::Segment tried;
    tried.record_type = "anti-strategy";
    tried.version = v;
    tried.sha = row->sha;
    auto attempt =
        version_diff(*ctx.repo, ctx.meta.kernel_file, *ctx.commits, tried, ctx.diffs, facts->code_made_on(v));
    if (!attempt || !attempt->executable) continue;
    // Every changed line first (cheap): an attempt sharing none is no try.
    // Each makes most of the other's edits: an attempt whose one line the
    // strategy's change also carries (kit 60, K07: a `THREADS` change left
    // over from warps tries, inside a change that folds the softmax scale
    // into Q) is a try of that line, not of this change.
    if (!meets(changed_lines(*attempt), mine)) continue;
    const auto theirs = changed_lines(*attempt, ChangedLines::Running | ChangedLines::NotMoved);
    if (makes_most_of(mine, theirs) && makes_most_of(theirs, mine)) found.insert(v);
  }
  return in_run_order();
}

std::string how_a_try_ended(const workspace::VersionRow &row) {
  const std::string said =
      row.subject + "\n" + row.correctness_status.value_or("") + "\n" + row.gate_failure.value_or("");
  if (record::build_failure_regex().contains(said)) return workspace::kTryDidNotBuild;
  const bool failed_check =
      (row.correctness_status && ladder::correctness_failed(json::Value(*row.correctness_status))) ||
      (row.gate_failure && record::gate_failed_on_results(*row.gate_failure));
  return failed_check ? workspace::kTryFailedItsCheck : workspace::kTryMeasured;
}

std::optional<double> try_slower_than_tried_on_pct(const RunFacts &facts, const workspace::VersionRow &row) {
  if (how_a_try_ended(row) != workspace::kTryMeasured) return std::nullopt;
  const auto kept = facts.kept_through(row.version);
  std::optional<double> base;
  for (auto it = kept.rbegin(); it != kept.rend() && !base; ++it)
    if ((*it)->version != row.version) base = (*it)->geomean();
  const auto mine = row.geomean();
  if (!mine || !base || *base <= 0) return std::nullopt;
  return (*mine / *base - 1.0) * 100.0;
}

} // namespace otm::packet
