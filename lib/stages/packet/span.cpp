#include "packet/span.hpp"

#include "packet/run_facts.hpp"

namespace otm::packet {

Span span_of(const json::Value &seg, const Context &ctx) {
  Span out;
  const std::string type = seg.string_or("record_type");
  if (!ctx.repo || !ctx.commits) return out;
  auto made_on = [&](const std::string &version) {
    return ctx.facts ? ctx.facts->code_made_on(version) : std::string();
  };
  // A version's own change, from the code it was made on.
  auto own_of = [&](const std::string &version) {
    return own_change(*ctx.repo, *ctx.commits, version, ctx.diffs, made_on(version));
  };
  auto runs = [&](const std::string &version) {
    auto d = own_of(version);
    return d && d->executable;
  };
  // A kept step that failed its correctness check was undone later (the
  // run kept its commit, not its change): no part of the lineage.
  auto lineage_through = [&](const std::string &version) {
    if (ctx.facts)
      for (const auto *row : ctx.facts->kept_through(version)) {
        const std::string v = row->string_or("version");
        if (ctx.facts->passed_correctness(v) && runs(v)) out.lineage.push_back(row);
      }
  };
  // A reference kernel: whether its version's own change runs (its change
  // text describes the kernel only then), and its lineage.
  if (type == "reference-kernel") {
    out.this_step_runs = runs(seg.string_or("version"));
    // The lineage before the kernel's own step: what its code builds on.
    lineage_through(seg.string_or("version"));
    if (!out.lineage.empty() && out.lineage.back()->string_or("version") == seg.string_or("version"))
      out.lineage.pop_back();
    const auto *from = seg.get("measured_against").get("sha").as_string();
    const auto *to = seg.get("sha").as_string();
    if (from && to && !from->empty())
      out.differs_from_measured_against =
          diff_between(*ctx.repo, *from, *to, DiffRange::MeasuredAgainst, ctx.diffs).executable;
    const auto *final_sha = seg.get("final_kernel").get("sha").as_string();
    if (final_sha && to && !final_sha->empty())
      out.differs_from_final_kernel =
          *final_sha != *to &&
          diff_between(*ctx.repo, *to, *final_sha, DiffRange::MeasuredAgainst, ctx.diffs).executable;
    return out;
  }
  if (type != "strategy" || !ctx.facts) return out;
  const auto *from = seg.get("measured_against").get("version").as_string();
  if (!from) return out;
  lineage_through(*from);
  for (const auto *row : ctx.facts->kept_between(*from, seg.string_or("version")))
    if (runs(row->string_or("version"))) out.earlier.push_back(row);
  auto own = own_of(seg.string_or("version"));
  out.this_step_runs = own && own->executable;
  if (!out.earlier.empty() && own && !own->text.empty()) out.own = std::move(own);
  // What the code builds on: the step the diff starts from (the best-so-far,
  // which may be a kept step under the milestone threshold after the
  // previous milestone), walking back over kept steps whose own change runs
  // nothing (a re-measurement after a driver update); the baseline (no kept
  // step before it) ends the walk.
  const auto &previous = seg.get("builds_on");
  if (*from == previous.string_or("version") && (previous.get("is_baseline").truthy() || runs(*from))) return out;
  for (std::string v = *from; !v.empty(); v = ctx.commits->version_of(made_on(v))) {
    const auto *row = ctx.facts->row_of(v);
    if (row && (runs(v) || made_on(v).empty())) {
      out.builds_on_description = row->get("action_description");
      out.builds_on_version = v;
      break;
    }
  }
  return out;
}

} // namespace otm::packet
