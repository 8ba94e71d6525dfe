#include "packet/earlier_tries.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "code/inert_changes.hpp"
#include "packet/kernel_code.hpp"
#include "packet/run_facts.hpp"

namespace otm::packet {

namespace {

// The changed lines of a diff, whitespace taken out, by side; a line
// both removed and added is in neither.
struct Edits {
  std::set<std::string> added, removed;
  std::size_t size() const { return added.size() + removed.size(); }
};

std::string without_space(std::string_view line) {
  std::string out;
  for (char ch : line)
    if (!std::isspace(static_cast<unsigned char>(ch))) out.push_back(ch);
  return out;
}

// Every changed line, or with `running_only` those that run
// (code::inert_changes against the file after the change).
Edits edits_of(const KernelDiff &d, bool running_only) {
  Edits out;
  if (!d.lexed) return out;
  const auto &lines = d.lexed->lines;
  std::optional<code::InertChanges> inert;
  if (running_only)
    inert = code::inert_changes(lines, d.after ? std::optional<std::string_view>(*d.after) : std::nullopt);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto &l = lines[i];
    const bool added = l.role == code::DiffLine::Role::Added;
    if ((!added && l.role != code::DiffLine::Role::Removed) || (inert && !inert->runs(i))) continue;
    auto text = without_space(l.text.substr(std::min(l.body, l.text.size())));
    if (!text.empty()) (added ? out.added : out.removed).insert(std::move(text));
  }
  // A line removed and added alike was moved or re-indented: no edit (a
  // loop the change wraps around `e = tl.exp(x - m)` does not try exp).
  for (auto it = out.added.begin(); it != out.added.end();)
    it = out.removed.erase(*it) ? out.added.erase(it) : std::next(it);
  return out;
}

// Whether the strategy's edits (`mine`) make at least half of an
// attempt's (and one): its added lines, or for an attempt that only
// removes, its removed lines. Removing the same line is no same change
// when each writes another in its place (kit 32: a port to Gluon and an
// exp2 attempt both remove `e = tl.exp(x - m)`).
bool makes_most_of(const Edits &mine, const Edits &attempt) {
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
  auto own = own_change(*ctx.repo, *ctx.commits, version, ctx.diffs, facts->code_made_on(version));
  if (!own || !own->executable) return in_run_order();
  const Edits mine = edits_of(*own, true);
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
    auto attempt = version_diff(*ctx.repo, *ctx.commits, tried, ctx.diffs, facts->code_made_on(v));
    if (!attempt || !attempt->executable) continue;
    // Every changed line first (cheap): an attempt sharing none is no try.
    const Edits all = edits_of(*attempt, false);
    const bool meets =
        std::any_of(all.added.begin(), all.added.end(), [&](auto &x) { return mine.added.count(x); }) ||
        std::any_of(all.removed.begin(), all.removed.end(), [&](auto &x) { return mine.removed.count(x); });
    if (meets && makes_most_of(mine, edits_of(*attempt, true))) found.insert(v);
  }
  return in_run_order();
}

} // namespace otm::packet
