#include "packet/span.hpp"

#include <set>

#include "code/inert_changes.hpp"

#include "packet/changed_lines.hpp"
#include "packet/earlier_tries.hpp"
#include "packet/run_facts.hpp"
#include "text/lines.hpp"
#include "text/utf8.hpp"
#include "workspace/segment_kinds.hpp"

namespace otm::packet {

bool own_change_runs(const Context &ctx, const std::string &version) {
  if (!ctx.repo || !ctx.commits) return true;
  const std::string made_on = ctx.facts ? ctx.facts->code_made_on(version) : std::string();
  auto d = own_change(*ctx.repo, ctx.meta.kernel_file, *ctx.commits, version, ctx.diffs, made_on);
  return d && d->executable;
}

Span span_of(const workspace::Segment &seg, const Context &ctx) {
  Span out;
  const std::string &type = seg.record_type;
  if (type == "strategy")
    out.reverted_tries =
        tries_of_this_change(ctx, seg.version,
                             seg.reverted_tries_before ? workspace::Segment::versions_in(*seg.reverted_tries_before)
                                                       : std::vector<std::string>());
  if (!ctx.repo || !ctx.commits) return out;
  auto made_on = [&](const std::string &version) {
    return ctx.facts ? ctx.facts->code_made_on(version) : std::string();
  };
  // A version's own change, from the code it was made on.
  auto own_of = [&](const std::string &version) {
    return own_change(*ctx.repo, ctx.meta.kernel_file, *ctx.commits, version, ctx.diffs, made_on(version));
  };
  auto runs = [&](const std::string &version) { return own_change_runs(ctx, version); };
  // A kept step that failed its correctness check was undone later (the
  // run kept its commit, not its change): no part of the lineage. One with
  // no readable step record failed nothing the trace shows: its code is
  // part of what later steps build on (kit 49, V12: a tile change skipped).
  auto lineage_through = [&](const std::string &version) {
    if (ctx.facts)
      for (const auto *row : ctx.facts->kept_through(version)) {
        const std::string &v = row->version;
        if ((ctx.facts->passed_correctness(v) || !row->has_memory) && runs(v)) out.lineage.push_back(row);
      }
  };
  // A reference kernel: whether its version's own change runs (its change
  // text describes the kernel only then), and its lineage.
  if (type == "reference-kernel") {
    out.this_step_runs = runs(seg.version);
    // The lineage before the kernel's own step: what its code builds on.
    lineage_through(seg.version);
    // A kept step that removed a barrier left the kernel with a race the
    // run's correctness check cannot rule out (kit 46: S41, S21).
    if (ctx.facts)
      for (const auto *row : out.lineage)
        if (auto d = own_of(row->version))
          if (auto line = ctx.barriers.removed_barrier(d->text)) {
            out.barrier_removed_by = row;
            out.barrier_removal = *line;
            break;
          }
    if (!out.lineage.empty() && out.lineage.back()->version == seg.version) out.lineage.pop_back();
    // The final kernel: the kept steps after it whose own lines are still
    // in the code the run ended with, when that code runs otherwise (kit
    // 33: GROUP_M 8->16 then 16->8 left the kernel as it was).
    if (seg.seg_kind == workspace::kFinalKernelSegment && ctx.facts && seg.sha && !seg.sha->empty()) {
      std::vector<const workspace::VersionRow *> kept, unmeasured;
      for (const auto *row : ctx.facts->kept_after(seg.version)) {
        if (!runs(row->version)) continue;
        if (ctx.facts->passed_correctness(row->version))
          kept.push_back(row);
        else if (!row->has_memory)
          unmeasured.push_back(row);
      }
      // The code the run ended with: the trace's HEAD (a restoring commit
      // after the last kept step is no version of its own; kit 34, W09).
      const auto head = ctx.repo->head();
      if ((!kept.empty() || !unmeasured.empty()) && head) {
        const auto ended =
            diff_between(*ctx.repo, ctx.meta.kernel_file, *seg.sha, *head, DiffRange::MeasuredAgainst, ctx.diffs);
        if (ended.executable) {
          const auto net = changed_lines(ended);
          for (const auto *row : kept)
            if (auto own = own_of(row->version); own && meets(changed_lines(*own), net)) out.kept_after.push_back(row);
          for (const auto *row : unmeasured)
            if (auto own = own_of(row->version); own && meets(changed_lines(*own), net))
              out.kept_after_unmeasured.push_back(row);
        }
      }
    }
    const auto from = seg.measured_from().sha;
    const auto &to = seg.sha;
    if (from && to && !from->empty())
      out.differs_from_measured_against =
          diff_between(*ctx.repo, ctx.meta.kernel_file, *from, *to, DiffRange::MeasuredAgainst, ctx.diffs).executable;
    const auto final_sha = seg.final_kernel_at().sha;
    if (final_sha && to && !final_sha->empty())
      out.differs_from_final_kernel =
          *final_sha != *to &&
          diff_between(*ctx.repo, ctx.meta.kernel_file, *to, *final_sha, DiffRange::MeasuredAgainst, ctx.diffs)
              .executable;
    return out;
  }
  if (type != "strategy" || !ctx.facts) return out;
  const auto measured_from = seg.measured_from();
  const auto &from = measured_from.version;
  if (!from) return out;
  lineage_through(*from);
  // A kept step whose own change left no line in the span's diff (a
  // later step of the span set it back: kit 29's EVICT on then off, kit
  // 28's GROUP_M 8 -> 16 -> 8) was not measured with this one.
  std::optional<ChangedLines> span_code;
  if (const auto &base = measured_from.sha; base && !base->empty())
    if (const auto &target = seg.sha; target && !target->empty())
      span_code = changed_lines(
          diff_between(*ctx.repo, ctx.meta.kernel_file, *base, *target, DiffRange::MeasuredAgainst, ctx.diffs));
  for (const auto *row : ctx.facts->kept_between(*from, seg.version)) {
    const std::string &v = row->version;
    auto own = own_of(v);
    if (!own || !own->executable) continue;
    // Whether any line the step's own change adds or removes is added or
    // removed the same way by the diff of the span.
    if (span_code && !meets(changed_lines(*own), *span_code)) continue;
    out.earlier.push_back(row);
  }
  auto own = own_of(seg.version);
  out.this_step_runs = own && own->executable;
  if (!out.earlier.empty() && own && !own->text.empty()) out.own = std::move(own);
  // What the code builds on: the step the diff starts from (the best-so-far,
  // which may be a kept step under the milestone threshold after the
  // previous milestone), walking back over kept steps whose own change runs
  // nothing (a re-measurement after a driver update); the baseline (no kept
  // step before it) ends the walk.
  const auto &previous = seg.builds_on;
  if (*from == seg.builds_on_step().version.value_or("") && (previous.get("is_baseline").truthy() || runs(*from)))
    return out;
  for (std::string v = *from; !v.empty(); v = ctx.commits->version_of(made_on(v))) {
    const auto *row = ctx.facts->row_of(v);
    if (row && (runs(v) || made_on(v).empty())) {
      out.builds_on_description = json::Value(row->action_description);
      out.builds_on_version = v;
      break;
    }
  }
  return out;
}

// The running lines the step a strategy builds on changed, as its own
// diff wrote them, when the kernel after the strategy still holds every
// line it added and the change is a few short lines: what that step did
// in code when its words name another lever (kit 54, Q09: "flash-decoding
// splits 16->32" for `GROUP_SIZE_M = 16` -> `32`). Null otherwise.
json::Value running_change_of(const Context &ctx, const std::string &version, const std::string &after,
                              scrub::Scrubber &s) {
  // A change longer than this is no setting a sentence can quote.
  constexpr std::size_t kMaxLines = 3, kMaxLineChars = 100;
  if (!ctx.repo || !ctx.commits || version.empty() || after.empty()) return {};
  const std::string made_on = ctx.facts ? ctx.facts->code_made_on(version) : std::string();
  auto d = own_change(*ctx.repo, ctx.meta.kernel_file, *ctx.commits, version, ctx.diffs, made_on);
  if (!d || !d->executable || !d->lexed) return {};
  const auto &lines = d->lexed->lines;
  const auto inert = code::inert_changes(lines, d->after ? std::optional<std::string_view>(*d->after) : std::nullopt);
  std::set<std::string> held;
  for (const auto &l : text::split_lines(after)) held.insert(text::without_whitespace(l));
  json::Value removed = json::Value::array(), added = json::Value::array();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto &l = lines[i];
    const bool is_added = l.role == code::DiffLine::Role::Added;
    if ((!is_added && l.role != code::DiffLine::Role::Removed) || !code::is_executable(l.kind) || !inert.runs(i))
      continue;
    const std::string_view body = text::strip(l.text.substr(std::min(l.body, l.text.size())));
    if (body.size() > kMaxLineChars) return {};
    if (is_added && !held.count(text::without_whitespace(body))) return {};
    (is_added ? added : removed).push_back(s.code(body, code::language_of_path(ctx.meta.kernel_file)));
  }
  if (added.size() == 0 || added.size() > kMaxLines || removed.size() > kMaxLines) return {};
  json::Value out = json::Value::object();
  out.set("removed", std::move(removed));
  out.set("added", std::move(added));
  return out;
}

} // namespace otm::packet
