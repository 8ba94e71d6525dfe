#include "distill/strategy_gain.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "ladder/noise.hpp"
#include "text/pyformat.hpp"
#include "workspace/segment_kinds.hpp"
#include "workspace/shape_finding.hpp"

namespace otm::distill::drafting {

namespace {

// An axis value as the workload spells it: a whole number without ".0".
std::string axis_value(const Value &v) {
  auto x = v.as_number();
  return x && *x == std::floor(*x) && std::abs(*x) < 9e15 ? std::to_string(static_cast<long long>(*x)) : v.python_str();
}

// "M=4, N=4096, K=14336": a per-shape entry's axes; empty without them.
std::string axes_of(const Value &e) {
  std::string axes;
  if (const auto *a = e.get("axes").as_object())
    for (const auto &[name, value] : *a) axes += (axes.empty() ? "" : ", ") + name + "=" + axis_value(value);
  return axes;
}

// "shape-5 (M=4, N=4096, K=14336) -55.09 %".
std::string shape_named(const Value &e) {
  std::string axes = axes_of(e);
  return workspace::ShapeFinding::from_json(e).shape + (axes.empty() ? "" : " (" + axes + ")") + " " +
         e.get("change_pct").python_str() + " %";
}

// "; per shape from -28.5 % (shape-4: M=4) to -1.2 % (shape-1: M=1)": how
// evenly the geomean was earned, each shape named by its axes when the
// packet has them (kit 28: "shape-N" labels hid which shapes gained);
// then the shapes that measured slower inside the run's per-shape spread,
// which are no regression but where the change did not help (kit 28, Q19:
// the M=32 and M=256 shapes). Empty with fewer than two shapes.
std::string shape_range(const Value &changes, std::optional<double> band) {
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
  auto one = [](const Value &e) {
    std::string axes = axes_of(e);
    return e.get("change_pct").python_str() + " % (" + workspace::ShapeFinding::from_json(e).shape +
           (axes.empty() ? "" : ": " + axes) + ")";
  };
  std::string out = "; per shape from " + one(*lo) + " to " + one(*hi);
  if (!band) return out;
  std::string slower;
  for (const auto &e : *all) {
    auto x = e.get("change_pct").as_number();
    if (!x || *x <= 0 || *x > *band || !e.get("shape").is_string()) continue;
    slower += (slower.empty() ? "" : ", ") + shape_named(e);
  }
  if (!slower.empty())
    out += "; slower, inside the run's per-shape spread of re-measurements of unchanged code: " + slower;
  return out;
}

// The gain's price (schema: "the same metric going the wrong way on one
// shape bucket"): every shape that measured slower than the version the
// step is measured against by more than the run's per-shape spread of
// re-measurements of unchanged code. A run that never measured code it
// kept twice has no spread: then a shape slower by more than
// `without_band_pct` is listed, said as such (kit 59, L06: +10.8 % on the
// small shape of a -4.1 % gain, and `regressions` empty).
Value shape_regressions(const Value &m, double without_band_pct) {
  Value out = Value::array();
  auto band = m.get("same_code_shape_spread_pct").as_number();
  const auto *changes = m.get("per_shape_vs_measured_against").as_array();
  if (!changes || (!band && (!m.get("same_code_spread_pct").is_null() || without_band_pct <= 0))) return out;
  const double over = band ? *band : without_band_pct;
  for (const auto &e : *changes) {
    auto x = e.get("change_pct").as_number();
    if (!x || *x <= over || !e.get("shape").is_string()) continue;
    Value r = Value::object();
    r.set("metric", "latency");
    r.set("direction", "lower-better");
    r.set("source", "harness");
    r.set("delta_pct", -*x);
    r.set("measured_over", "latency of " + workspace::ShapeFinding::from_json(e).shape +
                               ", against the best earlier step " +
                               (band ? std::string("(slower by more than the run's per-shape spread of "
                                                   "re-measurements of unchanged code)")
                                     : "(the run never re-measured code it kept, so its noise is unknown)"));
    out.push_back(std::move(r));
  }
  return out;
}

// A geomean gain resting on a few shapes (round 7: a persistent grid
// credited with the gain of one-row shapes whose grid it leaves as it
// was): fewer than `min_share` of the shapes moved faster than the run's
// per-shape spread of unchanged code, and the others, together, moved
// inside the run's band. nullopt when the gain is broad or the packet
// cannot tell.
struct FewShapes {
  std::vector<const Value *> beyond; // faster than the per-shape band
  std::size_t rest = 0;              // the others
  double rest_pct = 0;               // their geomean change together
};

std::optional<FewShapes> gain_on_a_few_shapes(const Value &m, double min_share) {
  auto shape_band = m.get("same_code_shape_spread_pct").as_number(), band = m.get("same_code_spread_pct").as_number();
  const auto *changes = m.get("per_shape_vs_measured_against").as_array();
  if (!shape_band || !band || !changes || changes->size() < 3) return std::nullopt;
  FewShapes f;
  double log_rest = 0;
  for (const auto &e : *changes) {
    auto x = e.get("change_pct").as_number();
    auto before = e.get("before_us").as_number(), after = e.get("after_us").as_number();
    if (!x || !before || !after || *before <= 0 || *after <= 0) return std::nullopt;
    if (*x < -*shape_band) {
      f.beyond.push_back(&e);
    } else {
      log_rest += std::log(*after / *before);
      ++f.rest;
    }
  }
  if (static_cast<double>(f.beyond.size()) >= min_share * static_cast<double>(changes->size()) || f.rest == 0)
    return std::nullopt;
  f.rest_pct = (std::exp(log_rest / static_cast<double>(f.rest)) - 1.0) * 100.0;
  if (-f.rest_pct > *band) return std::nullopt;
  return f;
}

// "shape-5 (M=4, N=4096)", or the bare label without axes.
std::string shape_label(const Value &e) {
  std::string axes = axes_of(e);
  return workspace::ShapeFinding::from_json(e).shape + (axes.empty() ? "" : " (" + axes + ")");
}

// "-5.66 % to -3.28 %", or one value: the range of the entries' changes.
std::string change_range(const std::vector<const Value *> &entries) {
  const Value *lo = nullptr, *hi = nullptr;
  for (const auto *e : entries) {
    auto x = e->get("change_pct").as_number();
    if (!x) continue;
    if (!lo || *x < *lo->get("change_pct").as_number()) lo = e;
    if (!hi || *x > *hi->get("change_pct").as_number()) hi = e;
  }
  if (!lo) return {};
  std::string out = lo->get("change_pct").python_str() + " %";
  if (hi->get("change_pct") != lo->get("change_pct")) out += " to " + hi->get("change_pct").python_str() + " %";
  return out;
}

// Whether `name` stands in `text` as a word of its own ("M" in "all M
// activation rows", not in "Make").
bool names_axis(std::string_view text, std::string_view name) {
  auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (auto at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    auto end = at + name.size();
    if ((at == 0 || !word(text[at - 1])) && (end == text.size() || !word(text[end]))) return true;
  }
  return false;
}

// Where a gain a few shapes carry applies: each variable axis the run's
// account names on which every shape that gained lies beyond every shape
// that did not ("M>=2": round 16's loop over M inside the program, which
// leaves the M=1 shapes as they were), joined by "and". nullopt when no
// named axis separates them, when a shape's axes are unknown, or when the
// launch counts say the change acts elsewhere: every shape that gained
// kept its program count while a shape that did not changed its own (round
// 7's persistent grid).
std::optional<std::string> regime_of(const FewShapes &f, const Value &m, std::string_view said) {
  if (f.beyond.empty()) return std::nullopt;
  const auto *changes = m.get("per_shape_vs_measured_against").as_array();
  auto gained = [&](const Value &e) { return std::find(f.beyond.begin(), f.beyond.end(), &e) != f.beyond.end(); };
  auto programs_moved = [](const Value &e) -> std::optional<bool> {
    auto b = e.get("programs_before").as_number(), a = e.get("programs_after").as_number();
    if (!b || !a) return std::nullopt;
    return *b != *a;
  };
  bool gained_moved = false, rest_moved = false;
  for (const auto &e : *changes)
    if (auto moved = programs_moved(e); moved && *moved) (gained(e) ? gained_moved : rest_moved) = true;
  if (rest_moved && !gained_moved) return std::nullopt;
  const auto *first = f.beyond.front()->get("axes").as_object();
  if (!first) return std::nullopt;
  // Each separating axis's bound (round 16: "all M activation rows" set
  // apart by M, and by K only because both shapes with M>1 happen to have
  // the longest K: only the named one is kept below).
  std::vector<std::pair<std::string, std::string>> bounds;
  for (const auto &[name, unused] : *first) {
    (void)unused;
    std::optional<double> lo_in, hi_in, lo_out, hi_out;
    const Value *lo_shape = nullptr, *hi_shape = nullptr;
    for (const auto &e : *changes) {
      auto x = e.get("axes").get(name).as_number();
      if (!x) return std::nullopt;
      auto &lo = gained(e) ? lo_in : lo_out;
      auto &hi = gained(e) ? hi_in : hi_out;
      if (!lo || *x < *lo) {
        lo = *x;
        if (gained(e)) lo_shape = &e;
      }
      if (!hi || *x > *hi) {
        hi = *x;
        if (gained(e)) hi_shape = &e;
      }
    }
    // The bound is a value the packet holds (the no-fabrication gate).
    if (*lo_in > *hi_out)
      bounds.emplace_back(name, name + ">=" + axis_value(lo_shape->get("axes").get(name)));
    else if (*hi_in < *lo_out)
      bounds.emplace_back(name, name + "<=" + axis_value(hi_shape->get("axes").get(name)));
  }
  // Only an axis the account names: one it does not is where the noise
  // happened to fall (kit 26, N11: "B>=16" for a single launch of q and k,
  // which the truth has helping every shape; the two shapes that cleared
  // the noise, B=64 S=1 and B=16 S=2048, share nothing the change acts on).
  std::string out;
  for (const auto &[name, bound] : bounds)
    if (names_axis(said, name)) out += (out.empty() ? "" : " and ") + bound;
  if (out.empty()) return std::nullopt;
  return out;
}

// Why a few shapes' gain is no strategy.
std::string few_shapes_refusal(const FewShapes &f, const Value &m) {
  const auto *changes = m.get("per_shape_vs_measured_against").as_array();
  const std::string inside = " % together, inside the run's own spread of re-measurements of unchanged code (" +
                             m.get("same_code_spread_pct").python_str() + " %)";
  if (f.beyond.empty())
    return "no shape moved faster than the run's per-shape spread (" +
           m.get("same_code_shape_spread_pct").python_str() + " %), and the " + std::to_string(f.rest) +
           " shapes moved " + text::fixed(f.rest_pct, 2) + inside + ": no gain is established";
  std::string which;
  for (const auto *e : f.beyond)
    which += (which.empty() ? "" : ", ") + workspace::ShapeFinding::from_json(*e).shape + " " +
             e->get("change_pct").python_str() + " %";
  return "the gain rests on " + std::to_string(f.beyond.size()) + " of " + std::to_string(changes->size()) +
         " shapes (" + which + "); the other " + std::to_string(f.rest) + " moved " + text::fixed(f.rest_pct, 2) +
         inside +
         ", and no axis the run's account names sets those shapes apart from the rest: the gain is those shapes', "
         "not the "
         "change's across the workload";
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
  for (const auto *e : same) which += (which.empty() ? "" : ", ") + workspace::ShapeFinding::from_json(*e).shape;
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

// Why a span's gain is not its last step's (kit16 F06: "BLOCK_N 32 -> 16"
// credited 34.9 % over a span whose kept fp16 dequant the run measured at
// -31.7 % in its subject but never in memory): the run's own subject
// measured this step from a kernel faster than the best-so-far, and of the
// span's gain the step's own share, in those numbers, is under `min_share`.
// The subject's numbers count only when its "after" is the memory's
// geomean within the run's band (1 % without one): the same measurement.
std::optional<std::string> gain_of_the_steps_before(const Value &af, double min_share) {
  const auto &span = af.get("span");
  const auto &m = af.get("measurements");
  auto best = span.get("best_so_far_geomean_us").as_number();
  auto from = span.get("the_run_measured_this_step_from_us").as_number();
  auto to = span.get("the_run_measured_this_step_to_us").as_number();
  auto after = m.get("geomean_us").as_number();
  if (!best || !from || !to || !after || *after <= 0 || *from <= 0 || *best <= *after) return std::nullopt;
  double same = m.get("same_code_spread_pct").as_number().value_or(1.0);
  if (std::abs(*to / *after - 1.0) * 100.0 > same) return std::nullopt;
  double share = (*from - *to) / (*best - *after);
  if (share >= min_share) return std::nullopt;
  return "the run measured this step from " + text::fixed(*from, 2) + " to " + text::fixed(*to, 2) +
         " us (its subject), not from the best-so-far's " + text::fixed(*best, 2) + " us: of the span's gain (" +
         text::fixed((1.0 - *after / *best) * 100.0, 2) + " %) the step's own is " +
         text::fixed((1.0 - *to / *from) * 100.0, 2) +
         " %; the rest is the kept steps between, which the trace does not measure apart";
}

// The run's account of the step: its change and causal sentences, where
// it names the axis its change is about.
std::string account_of(const Context &c) {
  std::string out = c.said.change;
  for (const auto &s : nonblank_strings(c.said.causal_sentences)) out += "\n" + s;
  return out;
}

// Kit 38, Q08: a gain under `small_gain_without_band_pct` in a run that
// never re-measured code it kept, while a measured shape got slower: with
// no noise to read it against and shapes that disagree in sign, nothing
// says the change helped. nullopt when the run has a band, the gain is
// larger, or every shape moved the same way (then the record notes it).
std::optional<std::string> small_gain_shapes_disagree(const Value &m, double small_pct) {
  const auto improved = m.get("improve_pct_vs_best_so_far").as_number();
  if (!m.get("same_code_spread_pct").is_null() || !improved || *improved <= 0 || *improved >= small_pct)
    return std::nullopt;
  const auto *changes = m.get("per_shape_vs_measured_against").as_array();
  if (!changes) return std::nullopt;
  const Value *slowest = nullptr;
  for (const auto &e : *changes)
    if (auto x = e.get("change_pct").as_number(); x && *x > 0 && e.get("shape").is_string())
      if (!slowest || *x > *slowest->get("change_pct").as_number()) slowest = &e;
  if (!slowest) return std::nullopt;
  return "the step measured " + m.get("improve_pct_vs_best_so_far").python_str() +
         " % faster than its best-so-far, under " + text::fixed(small_pct, 1) +
         " %, in a run that never measured code it kept twice, and " + *slowest->get("shape").as_string() + " got " +
         slowest->get("change_pct").python_str() +
         " % slower: with its noise unknown and its shapes disagreeing, the gain is not established";
}

} // namespace

// The measurement checks: a gain beyond the run's noise, on most shapes.
void established_gain(Context &c) {
  // The ladder's `final` is the last version kept without a new best by the
  // milestone threshold (kit 57, N04: a grid-stride loop kept at -0.34 %,
  // inside the run's noise): no gain of its own is established, and the
  // final kernel is the reference kernel's record.
  if (c.packet.head().seg_kind == workspace::kFinalMilestoneSegment)
    refuse("worth.gain.pct", "the step is the run's final kernel, not a milestone: the run kept it without a new "
                             "best-so-far by the milestone threshold, so no gain of its own is established (the "
                             "final kernel is the reference kernel's record)");
  // A gain no larger than the run's own spread of re-measurements of
  // unchanged code is not established (the same rule as a failed lever's).
  const auto &m = c.af.get("measurements");
  const auto &improved = m.get("improve_pct_vs_best_so_far"), &band = m.get("same_code_spread_pct");
  if (improved.is_number() && band.is_number() && *improved.as_number() <= *band.as_number())
    refuse("worth.gain.pct", "the step measured " + improved.python_str() +
                                 " % faster than its best-so-far, inside the run's own spread of re-measurements "
                                 "of unchanged code (" +
                                 band.python_str() + " %): the gain is not established");
  // The run's own re-measurement of this version (kit 55, P22: "v65_retry
  // ... re-measured after a noisy run" at 52.136 against 50.849 us): a
  // gain it does not bear out, or a run of it that failed its check, is
  // not established either.
  if (const auto *again = m.get("re_measured_by_the_run").as_array())
    for (const auto &r : *again) {
      if (ladder::correctness_failed(r.get("correctness_status")))
        refuse("worth.gain.pct", "the run measured this version again and that run failed its correctness check (" +
                                     r.get("correctness_status").python_str() + "): the gain is not established");
      const auto &again_pct = r.get("improve_pct_vs_best_so_far");
      const double floor = band.is_number() ? *band.as_number() : 0.0;
      if (again_pct.is_number() && *again_pct.as_number() <= floor)
        refuse("worth.gain.pct", "the run measured this version again at " + r.get("geomean_us").python_str() +
                                     " us geomean, " + again_pct.python_str() + " % against its best-so-far" +
                                     (band.is_number() ? ", inside the run's own spread of re-measurements of "
                                                         "unchanged code (" +
                                                             band.python_str() + " %)"
                                                       : std::string()) +
                                     ": the gain is not established");
    }
  if (auto mixed = small_gain_shapes_disagree(m, c.rules.small_gain_without_band_pct)) refuse("worth.gain.pct", *mixed);
  if (auto few = gain_on_a_few_shapes(m, c.rules.gain_min_shape_share); few && !regime_of(*few, m, account_of(c)))
    refuse("worth.gain.pct", few_shapes_refusal(*few, m));
  if (auto elsewhere = gain_on_shapes_it_does_not_reach(m)) refuse("worth.gain.pct", *elsewhere);
  if (auto before = gain_of_the_steps_before(c.af, c.rules.span_own_gain_min_share)) refuse("worth.gain.pct", *before);
}

namespace {

// A gain a few shapes carry and where it applies, when an axis sets them
// apart: what the record's shape_regime and measured_over say.
struct GainRegime {
  FewShapes few;
  std::string predicate;
};
std::optional<GainRegime> gain_regime_of(const Context &c) {
  const auto &m = c.af.get("measurements");
  auto few = gain_on_a_few_shapes(m, c.rules.gain_min_shape_share);
  if (!few) return std::nullopt;
  auto predicate = regime_of(*few, m, account_of(c));
  if (!predicate) return std::nullopt;
  return GainRegime{std::move(*few), std::move(*predicate)};
}

} // namespace

std::string launch_by_shape(const Context &c) {
  const auto *changes = c.af.get("measurements").get("per_shape_vs_measured_against").as_array();
  if (!changes) return {};
  std::vector<const Value *> moved, same;
  for (const auto &e : *changes) {
    auto b = e.get("programs_before").as_number(), a = e.get("programs_after").as_number();
    if (!b || !a) return {};
    (*b != *a ? moved : same).push_back(&e);
  }
  if (moved.empty() || same.empty()) return {};
  std::string out = " In the code the launch starts another number of programs on ";
  for (std::size_t i = 0; i < moved.size(); ++i)
    out += (i ? "; " : "") + shape_label(*moved[i]) + ": " + axis_value(moved[i]->get("programs_before")) + " -> " +
           axis_value(moved[i]->get("programs_after"));
  out += ", and as many as before on ";
  for (std::size_t i = 0; i < same.size(); ++i)
    out += (i ? "; " : "") + shape_label(*same[i]) + ": " + axis_value(same[i]->get("programs_after"));
  out += ".";
  auto there = change_range(moved), elsewhere = change_range(same);
  if (!there.empty() && !elsewhere.empty())
    out += " Latency changed by " + there + " where the launch changed and by " + elsewhere + " where it did not.";
  return out;
}

std::optional<std::string> gain_regime(const Context &c) {
  auto r = gain_regime_of(c);
  return r ? std::optional<std::string>(r->predicate) : std::nullopt;
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
    std::string over =
        "geomean latency over the run's benchmarked shapes, against the best earlier step" +
        shape_range(m.get("per_shape_vs_measured_against"), m.get("same_code_shape_spread_pct").as_number());
    // A gain a few shapes carry is theirs: said with the axes that set
    // them apart (the record's shape_regime).
    if (auto regime = gain_regime_of(c)) {
      std::string which;
      for (const auto *e : regime->few.beyond) which += (which.empty() ? "" : ", ") + shape_named(*e);
      // No computed number: the no-fabrication gate holds the record to
      // the packet's, and otm-explain to the trace's (the run's spread is
      // otm's arithmetic).
      over += "; the gain is the shapes' with " + regime->predicate + ": " + which +
              "; the others moved together inside the run's own spread of re-measurements of unchanged code";
    }
    metric.set("measured_over", over);
    g.set("metrics", Value(json::Array{metric}));
    g.set("regressions", shape_regressions(m, c.rules.small_gain_without_band_pct));
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
  // Kit 29, R02: a gain under a small multiple of the run's band (1.82 %
  // against 1.48 %) is established but close to the noise; said.
  if (auto band = m.get("same_code_spread_pct").as_number(), improved = pct.as_number();
      band && improved && *band > 0 && *improved < c.rules.close_gain_band_multiple * *band) {
    // No multiple in the text: a number the packet does not hold is a
    // fabrication (the no-fabrication gate).
    std::string note = "the gain is close to the run's own spread of re-measurements of unchanged code (" +
                       m.get("same_code_spread_pct").python_str() + " %): near its noise";
    if (const auto *n = g.get("note").as_string()) note = *n + "; " + note;
    g.set("note", note);
  }
  // Kit 36, Y12: a small gain in a run that never re-measured code it kept
  // has nothing to be read against; said.
  if (auto improved = pct.as_number();
      m.get("same_code_spread_pct").is_null() && improved && *improved < c.rules.small_gain_without_band_pct) {
    std::string note = "the run never measured code it kept twice, so its noise is unknown: a gain this small may be "
                       "inside it";
    if (const auto *n = g.get("note").as_string()) note = *n + "; " + note;
    g.set("note", note);
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
