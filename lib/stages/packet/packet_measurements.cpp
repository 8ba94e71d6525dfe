#include "packet/packet_measurements.hpp"

#include "packet/run_facts.hpp"

namespace otm::packet {

json::Value measurements_of(Texts &t, const workspace::Segment &seg, const workspace::VersionRow &row,
                            const Context &ctx, const std::string &type) {
  const auto &meta = ctx.meta;
  const RunFacts *facts = ctx.facts;
  json::Value m = json::Value::object();
  m.set("geomean_us", row.geomean_us);
  m.set("improve_pct_vs_best_so_far", seg.improve_pct);
  m.set("arith_mean_us", row.arith_mean_us);
  m.set("per_shape_latency", std::move(t.shapes));
  json::Value correctness = json::Value::object();
  correctness.set("status", row.correctness_status);
  correctness.set("max_abs_err", row.max_abs_err);
  correctness.set("max_rel_err", row.max_rel_err);
  m.set("correctness", std::move(correctness));
  m.set("comparable_with_the_store", seg.comparable);
  // The run's noise band (issue 25): the largest spread of its own
  // re-measurements of unchanged code; and for a failed attempt, how much
  // slower it measured than the code it was tried on.
  auto spread = facts ? facts->same_code_spread_pct() : std::nullopt;
  m.set("same_code_spread_pct", spread ? json::hundredths(*spread) : json::Value());
  if (type == "reference-kernel" && facts) {
    // The run's other measurements of this very code (round 28, W13): a
    // kernel quoted at the fastest of its re-measurements reads as faster
    // than it is.
    const auto same = facts->kept_with_the_same_code(seg.version);
    if (same.size() >= 2) {
      json::Value geomeans = json::Value::array();
      for (const auto *r : same) geomeans.push_back(r->geomean() ? json::Value(*r->geomean()) : json::Value());
      m.set("same_code_kept_geomeans_us", std::move(geomeans));
    }
  }
  // The run's own re-measurements of this version (kit 55, P22: a kernel
  // chosen on 50.849 us that the run measured again at 52.136 us), with
  // the gain each gives over the best-so-far for a strategy.
  if (type == "strategy" || type == "reference-kernel")
    if (const auto it = meta.re_measurements.find(seg.version); it != meta.re_measurements.end()) {
      // A plain double, 0 when unknown (GCC's -Wmaybe-uninitialized misreads
      // an std::optional<double> here).
      double best = 0;
      if (type == "strategy" && facts)
        if (const auto g = facts->geomean_of(seg.measured_from().version.value_or(""))) best = *g;
      json::Value list = json::Value::array();
      for (const auto &r : it->second) {
        json::Value e = json::Value::object();
        e.set("geomean_us", r.geomean_us);
        e.set("correctness_status", r.correctness_status);
        if (best > 0) e.set("improve_pct_vs_best_so_far", json::hundredths((best - r.geomean_us) / best * 100));
        list.push_back(std::move(e));
      }
      m.set("re_measured_by_the_run", std::move(list));
    }
  if (type != "reference-kernel") {
    // Per shape (issue 25): a geomean gain can sit on shapes the change
    // leaves as they were, and hide a shape that slowed.
    auto shape_spread = facts ? facts->same_code_shape_spread_pct() : std::nullopt;
    m.set("same_code_shape_spread_pct", shape_spread ? json::hundredths(*shape_spread) : json::Value());
    m.set("per_shape_vs_measured_against", std::move(t.shape_changes));
    // The product's SM count, what a cause about filling the SMs is read
    // against (`launch_grid.sm_count`).
    m.set("sm_count", ctx.sm_count ? json::Value(static_cast<double>(*ctx.sm_count)) : json::Value());
  }
  // The shapes the kernel the record presents cannot compute (a loop's
  // last step reads past the end): what its measurement there is worth.
  if (t.reads_past_the_end.size() > 0) m.set("shapes_it_reads_past_the_end_of", std::move(t.reads_past_the_end));
  // ... or cannot launch: more shared memory than a block may have.
  if (t.exceeds_shared_memory.size() > 0)
    m.set("shapes_it_exceeds_shared_memory_on", std::move(t.exceeds_shared_memory));
  if (type == "anti-strategy") {
    json::Value slower;
    auto mine = row.geomean();
    auto base = facts ? facts->geomean_of(seg.measured_from().version.value_or("")) : std::nullopt;
    if (mine && base && *base > 0) slower = json::hundredths((*mine / *base - 1.0) * 100.0);
    m.set("slower_than_tried_on_pct", std::move(slower));
  }
  return m;
}

} // namespace otm::packet
