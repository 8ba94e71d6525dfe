#include "distill/strategy_gain.hpp"

#include <algorithm>
#include <cmath>

#include "text/pyformat.hpp"

namespace otm::distill::drafting {

namespace {

// "; per shape from -28.5 % (shape-4) to -1.2 % (shape-1)": how evenly
// the geomean was earned; empty with fewer than two shapes.
std::string shape_range(const Value &changes) {
  const Value *lo = nullptr, *hi = nullptr;
  const auto *all = changes.as_array();
  if (!all) return {};
  for (const auto &e : *all) {
    auto x = e.get("change_pct").as_number();
    if (!x || !e.get("shape").is_string()) continue;
    if (!lo || *x < *lo->get("change_pct").as_number()) lo = &e;
    if (!hi || *x > *hi->get("change_pct").as_number()) hi = &e;
  }
  if (!lo || lo == hi) return {};
  auto one = [](const Value &e) { return e.get("change_pct").python_str() + " % (" + e.string_or("shape") + ")"; };
  return "; per shape from " + one(*lo) + " to " + one(*hi);
}

// The gain's price (schema: "the same metric going the wrong way on one
// shape bucket"): every shape that measured slower than the version the
// step is measured against by more than the run's per-shape spread of
// re-measurements of unchanged code. Without that spread nothing tells a
// regression from noise, and none is listed.
Value shape_regressions(const Value &m) {
  Value out = Value::array();
  auto band = m.get("same_code_shape_spread_pct").as_number();
  const auto *changes = m.get("per_shape_vs_measured_against").as_array();
  if (!band || !changes) return out;
  for (const auto &e : *changes) {
    auto x = e.get("change_pct").as_number();
    if (!x || *x <= *band || !e.get("shape").is_string()) continue;
    Value r = Value::object();
    r.set("metric", "latency");
    r.set("direction", "lower-better");
    r.set("source", "harness");
    r.set("delta_pct", -*x);
    r.set("measured_over", "latency of " + e.string_or("shape") +
                               ", against the best earlier step (slower by more than the run's per-shape spread "
                               "of re-measurements of unchanged code)");
    out.push_back(std::move(r));
  }
  return out;
}

// Why a geomean gain is not the change's across the workload, when it
// rests on a few shapes (round 7: a persistent grid credited with the
// gain of one-row shapes whose grid it leaves as it was): fewer than
// `min_share` of the shapes moved faster than the run's per-shape spread of
// unchanged code, and the others, together, moved inside the run's band.
std::optional<std::string> gain_on_a_few_shapes(const Value &m, double min_share) {
  auto shape_band = m.get("same_code_shape_spread_pct").as_number(), band = m.get("same_code_spread_pct").as_number();
  const auto *changes = m.get("per_shape_vs_measured_against").as_array();
  if (!shape_band || !band || !changes || changes->size() < 3) return std::nullopt;
  std::vector<const Value *> beyond;
  double log_rest = 0;
  std::size_t rest = 0;
  for (const auto &e : *changes) {
    auto x = e.get("change_pct").as_number();
    auto before = e.get("before_us").as_number(), after = e.get("after_us").as_number();
    if (!x || !before || !after || *before <= 0 || *after <= 0) return std::nullopt;
    if (*x < -*shape_band) {
      beyond.push_back(&e);
    } else {
      log_rest += std::log(*after / *before);
      ++rest;
    }
  }
  if (static_cast<double>(beyond.size()) >= min_share * static_cast<double>(changes->size()) || rest == 0)
    return std::nullopt;
  double rest_pct = (std::exp(log_rest / static_cast<double>(rest)) - 1.0) * 100.0;
  if (-rest_pct > *band) return std::nullopt;
  const std::string inside = " % together, inside the run's own spread of re-measurements of unchanged code (" +
                             m.get("same_code_spread_pct").python_str() + " %)";
  if (beyond.empty())
    return "no shape moved faster than the run's per-shape spread (" +
           m.get("same_code_shape_spread_pct").python_str() + " %), and the " + std::to_string(rest) +
           " shapes moved " + text::fixed(rest_pct, 2) + inside + ": no gain is established";
  std::string which;
  for (const auto *e : beyond)
    which += (which.empty() ? "" : ", ") + e->string_or("shape") + " " + e->get("change_pct").python_str() + " %";
  return "the gain rests on " + std::to_string(beyond.size()) + " of " + std::to_string(changes->size()) + " shapes (" +
         which + "); the other " + std::to_string(rest) + " moved " + text::fixed(rest_pct, 2) + inside +
         ": the gain is those shapes', not the change's across the workload";
}

// Why a gain is not the change's when shapes that run the same code before
// and after (the packet's reading of the diff: a branch their launch does
// not take, an unchanged launch) moved with it: the run measured something
// else (round 7: a three-pass loop moved into the `else` arm of a new
// single-pass branch, credited with the long rows' -27 % that still ran
// the three passes).
std::optional<std::string> gain_on_shapes_it_does_not_reach(const Value &m) {
  const auto *changes = m.get("per_shape_vs_measured_against").as_array();
  auto band = m.get("same_code_spread_pct").as_number();
  if (!band) band = m.get("same_code_shape_spread_pct").as_number();
  if (!changes || !band) return std::nullopt;
  std::vector<const Value *> same;
  double log_sum = 0;
  for (const auto &e : *changes) {
    const auto &runs = e.get("runs_changed_code");
    auto before = e.get("before_us").as_number(), after = e.get("after_us").as_number();
    if (!runs.is_bool() || *runs.as_bool() || !before || !after || *before <= 0 || *after <= 0) continue;
    same.push_back(&e);
    log_sum += std::log(*after / *before);
  }
  if (same.empty()) return std::nullopt;
  std::string which;
  for (const auto *e : same) which += (which.empty() ? "" : ", ") + e->string_or("shape");
  if (same.size() == changes->size())
    return "no benchmarked shape runs the code the change touches (" + which +
           " take the same launch and the same branches before and after): the gain is not this change's";
  double pct = (std::exp(log_sum / static_cast<double>(same.size())) - 1.0) * 100.0;
  if (-pct <= *band) return std::nullopt;
  return which +
         " run the same code before and after (their launch is unchanged and the change is in a branch "
         "they do not take), yet moved " +
         text::fixed(pct, 2) + " % together, beyond the run's own spread of re-measurements of unchanged code (" +
         text::fixed(*band, 2) + " %): the run's measurement moved for a reason other than this change";
}

} // namespace

// The measurement checks: a gain beyond the run's noise, on most shapes.
void established_gain(Context &c) {
  // A gain no larger than the run's own spread of re-measurements of
  // unchanged code is not established (the same rule as a failed lever's).
  const auto &m = c.af.get("measurements");
  const auto &improved = m.get("improve_pct_vs_best_so_far"), &band = m.get("same_code_spread_pct");
  if (improved.is_number() && band.is_number() && *improved.as_number() <= *band.as_number())
    refuse("worth.gain.pct", "the step measured " + improved.python_str() +
                                 " % faster than its best-so-far, inside the run's own spread of re-measurements "
                                 "of unchanged code (" +
                                 band.python_str() + " %): the gain is not established");
  if (auto few = gain_on_a_few_shapes(m, c.rules.gain_min_shape_share)) refuse("worth.gain.pct", *few);
  if (auto elsewhere = gain_on_shapes_it_does_not_reach(m)) refuse("worth.gain.pct", *elsewhere);
}

Value strategy_gain(Context &c) {
  const auto &m = c.af.get("measurements");
  const auto &geo = m.get("geomean_us");
  const auto &pct = m.get("improve_pct_vs_best_so_far");
  Value g;
  if (geo.is_number() && pct.is_number()) {
    g = Value::object();
    g.set("kind", "performance");
    g.set("basis", "measured");
    g.set("primary", "latency");
    g.set("pct", pct);
    Value metric = Value::object();
    metric.set("metric", "latency");
    metric.set("direction", "lower-better");
    metric.set("source", "harness");
    metric.set("delta_pct", pct);
    metric.set("measured_over", "geomean latency over the run's benchmarked shapes, against the best earlier step" +
                                    shape_range(m.get("per_shape_vs_measured_against")));
    g.set("metrics", Value(json::Array{metric}));
    g.set("regressions", shape_regressions(m));
  } else {
    g = qualitative_gain("performance");
    c.out.thin.push_back("worth.gain.pct");
  }
  const auto &corr = m.get("correctness");
  if (const auto *status = corr.get("status").as_string()) {
    Value cv = Value::object();
    cv.set("observed", *status);
    if (corr.get("max_abs_err").is_number()) cv.set("max_diff", corr.get("max_abs_err"));
    g.set("correctness", cv);
  }
  const auto &comparable = m.get("comparable_with_the_store");
  if (comparable.is_bool()) {
    g.set("comparable", comparable);
    if (!*comparable.as_bool())
      g.set("note", "percentages are measured against this run's own starting point, not against the store");
  }
  // Round 8: a gain every shape shows inside the per-shape noise is the
  // geomean's only; the record says so.
  if (auto band = m.get("same_code_shape_spread_pct").as_number(); band && g.get("pct").is_number()) {
    const auto *changes = m.get("per_shape_vs_measured_against").as_array();
    auto beyond = [&](const Value &e) { return e.get("change_pct").as_number().value_or(0) < -*band; };
    if (changes && !changes->empty() && std::none_of(changes->begin(), changes->end(), beyond)) {
      std::string note = "no single shape moved faster than the run's per-shape spread of re-measurements of "
                         "unchanged code (" +
                         m.get("same_code_shape_spread_pct").python_str() + " %): the gain shows in the geomean only";
      if (const auto *n = g.get("note").as_string()) note = *n + "; " + note;
      g.set("note", note);
    }
  }
  return g;
}

} // namespace otm::distill::drafting
