#include "packet/packet_texts.hpp"

#include "packet/span.hpp"
#include "packet/stock_texts.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/step_record.hpp"
#include "json/write.hpp"

namespace otm::packet {

namespace {

std::string string_form(const json::Value &v) {
  if (const auto *s = v.as_string()) return *s;
  if (v.is_array() || v.is_object()) return json::to_line(v);
  return v.python_str();
}

// Axis tables and hints are not prose but may still name private things:
// their strings get the comment substitution (no tidy-up, numbers kept).
json::Value scrub_strings(scrub::Scrubber &s, const json::Value &v) {
  if (const auto *str = v.as_string()) return s.comment(*str);
  if (const auto *arr = v.as_array()) {
    json::Value out = json::Value::array();
    for (const auto &e : *arr) out.push_back(scrub_strings(s, e));
    return out;
  }
  if (const auto *obj = v.as_object()) {
    json::Value out = json::Value::object();
    for (const auto &[k, e] : *obj) out.set(s.comment(k), scrub_strings(s, e));
    return out;
  }
  return v;
}

// A workload key's label: a key led by a uuid-like hash is labelled by it.
json::Value shape_label(scrub::Scrubber &s, const std::string &key) {
  static const text::Regex hash_prefix(R"(^([0-9a-f]{8})\b)");
  auto pre = hash_prefix.search(key);
  return s.label(pre ? std::string((*pre)[1]) : key);
}

json::Value shape_table(scrub::Scrubber &s, const json::Value &by_shape) {
  json::Value rows = json::Value::array();
  const auto *obj = by_shape.as_object();
  if (!obj) return rows;
  std::vector<const json::Member *> sorted;
  for (const auto &m : *obj) sorted.push_back(&m);
  // Numbers ascending; non-numeric latencies after them in table order.
  std::stable_sort(sorted.begin(), sorted.end(), [](const json::Member *a, const json::Member *b) {
    auto x = a->second.as_number(), y = b->second.as_number();
    if (x && y) return *x < *y;
    return x.has_value() && !y.has_value();
  });
  for (const auto *m : sorted) {
    json::Value row = json::Value::object();
    row.set("shape", shape_label(s, m->first));
    row.set("latency_us", m->second);
    rows.push_back(std::move(row));
  }
  return rows;
}

// An axis value as the workload spells it: a whole number as an int (the
// rule the schema validator applies), anything else as it is.
json::Value axis_number(double x) {
  return x == std::floor(x) && std::abs(x) < 9e15 ? json::Value(static_cast<std::int64_t>(x)) : json::Value(x);
}

// Each shape both `row` and the version its segment is measured against
// timed, in `row`'s table order: its latency before and after and the
// change in percent of before (negative = faster).
// `axes` when the workload names the shape, `runs_changed_code` when the
// reading of the diff decided it for the shape,
// `programs_before` / `programs_after` when it could count them.
json::Value shape_changes(scrub::Scrubber &s, const workspace::Segment &seg, const workspace::VersionRow &row,
                          const RunFacts *facts, const ShapeReach &reach) {
  json::Value out = json::Value::array();
  const auto *after = row.by_shape.as_object();
  std::string base = seg.measured_from().version.value_or("");
  if (!after || !facts || base.empty()) return out;
  for (const auto &[key, lat] : *after) {
    auto now = lat.as_number();
    auto before = facts->shape_latency_of(base, key);
    if (!now || !before || *before <= 0) continue;
    json::Value c = json::Value::object();
    c.set("shape", shape_label(s, key));
    c.set("before_us", *before);
    c.set("after_us", *now);
    c.set("change_pct", std::round((*now / *before - 1.0) * 10000.0) / 100.0);
    if (auto a = reach.axes.find(key); a != reach.axes.end()) {
      json::Value axes = json::Value::object();
      for (const auto &[name, value] : a->second) axes.set(name, axis_number(value));
      c.set("axes", std::move(axes));
    }
    if (auto r = reach.runs_changed.find(key); r != reach.runs_changed.end()) c.set("runs_changed_code", r->second);
    if (auto p = reach.programs.find(key); p != reach.programs.end()) {
      c.set("programs_before", p->second.before);
      c.set("programs_after", p->second.after);
    }
    out.push_back(std::move(c));
  }
  return out;
}

// Each variable axis's distinct values over the workload's shapes, in
// increasing order ({"S": [1024, 4096, 32768]}): the sizes the run checked
// and measured, what a kernel is known to work on (round 16: a decode
// kernel whose empty splits give NaN below S=1024, read as general).
// Empty when the workload names no shape.
json::Value benchmarked_values(const ShapeReach &reach, const std::vector<std::string> &var_axes) {
  std::map<std::string, std::set<double>> values;
  for (const auto &[key, axes] : reach.axes)
    for (const auto &[name, value] : axes)
      if (std::find(var_axes.begin(), var_axes.end(), name) != var_axes.end()) values[name].insert(value);
  json::Value out = json::Value::object();
  for (const auto &name : var_axes) {
    auto v = values.find(name);
    if (v == values.end()) continue;
    json::Value list = json::Value::array();
    for (double x : v->second) list.push_back(axis_number(x));
    out.set(name, std::move(list));
  }
  return out;
}

// Each fixed axis of the definition whose workload shapes hold another
// value, with all the values they hold in increasing order ({"K": [3, 5,
// 7]} where definition.json fixes K at 3): the trace contradicts itself on
// which operator its shapes time (kit 57, N40: a kernel hard-wired to 3x3
// taps "passing" K=5 and K=7). Empty when none does.
json::Value fixed_axes_benchmarked_otherwise(const ShapeReach &reach, const json::Value &constants) {
  json::Value out = json::Value::object();
  const auto *fixed = constants.as_object();
  if (!fixed) return out;
  for (const auto &[name, declared] : *fixed) {
    const auto value = declared.as_number();
    if (!value) continue;
    std::set<double> seen;
    for (const auto &[key, axes] : reach.axes)
      for (const auto &[axis, v] : axes)
        if (axis == name) seen.insert(v);
    if (seen.empty() || (seen.size() == 1 && *seen.begin() == *value)) continue;
    json::Value list = json::Value::array();
    for (double x : seen) list.push_back(axis_number(x));
    out.set(name, std::move(list));
  }
  return out;
}

// Each shape's variable axes ([{"T": 8, "V": 32000}, ...]), a combination
// once, in increasing order: which sizes were checked together (kit 28,
// Q16: "T in {..., 16384} and V in {..., 151936}" read as covering
// T=16384 with V=151936, which no shape paired). Empty when the workload
// names no shape or varies fewer than two axes (each axis's values say
// it all then).
json::Value benchmarked_shapes(const ShapeReach &reach, const std::vector<std::string> &var_axes) {
  json::Value out = json::Value::array();
  if (var_axes.size() < 2) return out;
  std::set<std::vector<double>> combinations;
  for (const auto &[key, axes] : reach.axes) {
    std::vector<double> combination;
    for (const auto &name : var_axes)
      for (const auto &[axis, value] : axes)
        if (axis == name) combination.push_back(value);
    if (combination.size() == var_axes.size()) combinations.insert(std::move(combination));
  }
  for (const auto &combination : combinations) {
    json::Value shape = json::Value::object();
    for (std::size_t i = 0; i < var_axes.size(); ++i) shape.set(var_axes[i], axis_number(combination[i]));
    out.push_back(std::move(shape));
  }
  return out;
}

} // namespace

// "Scrubbed": null or "" stays null; anything else is a (possibly empty) string.
json::Value scrubbed(scrub::Scrubber &s, const json::Value &v) {
  if (v.is_null() || (v.is_string() && v.as_string()->empty())) return {};
  return s.prose(string_form(v));
}

json::Value change_text_of(const workspace::VersionRow &row) {
  if (const auto &d = row.action_description; d && !text::strip(*d).empty()) return *d;
  if (const auto &d = row.stated_change; d && !text::strip(*d).empty()) return *d;
  return row.subject;
}

// Scrubs the texts in the order that fixes the shape-N numbering
// (packets.md §2): the spec's fields first, then otm's additions.
Texts scrub_texts(scrub::Scrubber &s, const workspace::Segment &seg, const workspace::VersionRow &row,
                  const Context &ctx, const std::vector<json::Value> &taken_up, const std::string &type,
                  const Span &span, const ShapeReach &reach) {
  const auto &meta = ctx.meta;
  Texts t;
  t.description = scrubbed(s, meta.description);
  t.change = scrubbed(s, json::Value(row.action_description));
  t.subject = scrubbed(s, row.subject);
  t.body = scrubbed(s, row.body);
  t.gate = scrubbed(s, json::Value(row.gate_failure));
  t.shapes = shape_table(s, row.by_shape);
  // The captures that measured the kernel under test are read first: a
  // profiler quote must come from the capture a record would cite.
  t.conclusion = report_conclusion(*ctx.files, seg.report_dirs, seg.ncu_dirs);
  t.conclusion_text = t.conclusion ? scrubbed(s, t.conclusion->text) : json::Value();
  // Only the entries kept (first 5 objects) are scrubbed, so labels never
  // skip numbers that appear nowhere.
  t.directions = json::Value::array();
  if (const auto *list = row.open_directions.as_array())
    for (const auto &e : *list) {
      if (!e.is_object() || t.directions.size() >= 5) continue;
      json::Value d = json::Value::object();
      d.set("direction", scrubbed(s, e.get("direction")));
      d.set("rationale", scrubbed(s, e.get("rationale")));
      t.directions.push_back(std::move(d));
    }
  t.pitfalls = json::Value::array();
  if (const auto *list = row.pitfalls.as_array())
    for (const auto &raw : *list) {
      auto e = trace::normalise_pitfall(raw);
      if (!e.is_object() || t.pitfalls.size() >= 5) continue;
      json::Value p = json::Value::object();
      for (const char *k : {"pitfall", "explanation", "fix"}) p.set(k, scrubbed(s, e.get(k)));
      t.pitfalls.push_back(std::move(p));
    }
  if (type == "anti-strategy") {
    t.lever = scrubbed(s, seg.deadend_text);
    t.fix = scrubbed(s, seg.pitfall_fix);
  }
  t.later_kept = json::Value::array();
  if (type == "strategy")
    t.previous =
        scrubbed(s, span.builds_on_description ? *span.builds_on_description : seg.builds_on.get("description"));
  t.harness = scrubbed(s, json::Value(meta.harness));
  t.category = scrubbed(s, json::Value(row.action_category));
  t.fixed_axes = scrub_strings(s, meta.constants.is_object() ? meta.constants : json::Value::object());
  t.var_axes = scrub_strings(s, json::Value::strings(meta.var_axes));
  t.benchmarked_values = benchmarked_values(reach, meta.var_axes);
  t.benchmarked_shapes = benchmarked_shapes(reach, meta.var_axes);
  t.fixed_axes_benchmarked_otherwise =
      fixed_axes_benchmarked_otherwise(reach, meta.constants.is_object() ? meta.constants : json::Value::object());
  // The trace's own explanations (otm additions, scrubbed after the spec's
  // fields so its shape-N numbering is unchanged).
  t.expected = scrubbed(s, json::Value(row.expected_impact));
  t.directions_up = json::Value::array();
  for (const auto &e : taken_up) {
    json::Value d = json::Value::object();
    d.set("direction", scrubbed(s, e.get("direction")));
    d.set("rationale", scrubbed(s, e.get("rationale")));
    t.directions_up.push_back(std::move(d));
  }
  t.evidence = t.conclusion && t.conclusion->evidence ? scrubbed(s, *t.conclusion->evidence) : json::Value();
  t.causal = json::Value::array();
  if (const auto *b = t.body.as_string())
    for (auto &sentence : ctx.causal.causal_sentences(*b)) t.causal.push_back(std::move(sentence));
  t.span_changes = json::Value::array();
  for (const auto *step : span.earlier) t.span_changes.push_back(scrubbed(s, change_text_of(*step)));
  if (const auto *later = seg.kept_in_the_run.as_array())
    for (const auto &k : *later) t.later_kept.push_back(scrubbed(s, k.get("change")));
  t.kept_since_last_try = json::Value::array();
  // The new bests the ladder accepted first, then the other kept steps,
  // each in run order.
  // Only kept steps whose own change runs (a step that moved only a
  // constant nothing reads kept nothing), each change once.
  auto runs = [&](const json::Value &k) {
    return own_change_runs(ctx, workspace::StepRef::of(k).version.value_or(""));
  };
  // Only after the last try, which an attempt matched by its code may have
  // moved later than the one whose words otm-partition matched.
  auto after_last_try = [&](const json::Value &k) {
    return !ctx.facts || span.reverted_tries.empty() ||
           ctx.facts->position_of(workspace::StepRef::of(k).version.value_or("")) >
               ctx.facts->position_of(span.reverted_tries.back());
  };
  auto keep_since = [&](const json::Value &text) {
    auto change = scrubbed(s, text);
    const auto *seen = t.kept_since_last_try.as_array();
    if (std::find(seen->begin(), seen->end(), change) == seen->end()) t.kept_since_last_try.push_back(change);
  };
  if (const auto *since = seg.kept_since_last_try ? seg.kept_since_last_try->as_array() : nullptr) {
    for (bool milestones : {true, false})
      for (const auto &k : *since)
        if (k.get("milestone").truthy() == milestones && runs(k) && after_last_try(k)) keep_since(k.get("change"));
  } else if (ctx.facts && !span.reverted_tries.empty()) {
    // Tries matched only by their code (otm-partition matched none by the
    // words): the kept steps since the last are read from the run, in run
    // order (round 27, V16: 128-bit loads reverted twice before the online
    // single pass, kept after it, and the record said nothing of it).
    // The new bests first, as otm-partition lists them (kit 37, Z14: three
    // flat num_stages flips named before the online pass that set a best).
    const auto since = ctx.facts->kept_between(span.reverted_tries.back(), row.version);
    for (bool bests : {true, false})
      for (const auto *k : since)
        if (ctx.facts->sets_a_new_best(k->version) == bests && ctx.facts->passed_correctness(k->version) &&
            own_change_runs(ctx, k->version))
          keep_since(change_text_of(*k));
  }
  t.other_settings_kept = json::Value::array();
  if (const auto *other = seg.kept_with_other_settings.as_array())
    for (const auto &k : *other) {
      if (!runs(k)) continue;
      auto setting = scrubbed(s, k.get("setting"));
      const auto *seen = t.other_settings_kept.as_array();
      if (std::find(seen->begin(), seen->end(), setting) == seen->end()) t.other_settings_kept.push_back(setting);
    }
  t.lineage = json::Value::array();
  for (const auto *step : span.lineage) t.lineage.push_back(scrubbed(s, change_text_of(*step)));
  if (span.barrier_removed_by) {
    t.barrier_removal = json::Value::object();
    t.barrier_removal.set("change", scrubbed(s, change_text_of(*span.barrier_removed_by)));
    t.barrier_removal.set("barrier", s.code(span.barrier_removal));
  }
  t.kept_after = json::Value::array();
  for (const auto *step : span.kept_after) t.kept_after.push_back(scrubbed(s, change_text_of(*step)));
  t.kept_after_unmeasured = json::Value::array();
  for (const auto *step : span.kept_after_unmeasured)
    t.kept_after_unmeasured.push_back(scrubbed(s, change_text_of(*step)));
  t.shape_changes = type == "reference-kernel" ? json::Value::array() : shape_changes(s, seg, row, ctx.facts, reach);
  t.reads_past_the_end = json::Value::array();
  for (const auto &[axes, tail] : reach.reads_past_the_end) {
    json::Value e = json::Value::object();
    e.set("shape", axes);
    e.set("loop", s.code(tail.loop));
    e.set("unmasked_loads_of", json::Value::strings(tail.pointers));
    e.set("bound", tail.bound + "=" + std::to_string(tail.bound_value));
    e.set("step", tail.step + "=" + std::to_string(tail.step_value));
    t.reads_past_the_end.push_back(std::move(e));
  }
  t.exceeds_shared_memory = json::Value::array();
  for (const auto &[axes, use] : reach.exceeds_shared_memory) {
    json::Value e = json::Value::object();
    e.set("shape", axes);
    json::Value calls = json::Value::array();
    for (const auto &a : use.allocations) calls.push_back(s.code(a));
    e.set("allocations", calls);
    e.set("bytes", static_cast<double>(use.bytes));
    e.set("limit_bytes",
          ctx.shared_memory_per_block ? json::Value(static_cast<double>(*ctx.shared_memory_per_block)) : json::Value());
    t.exceeds_shared_memory.push_back(std::move(e));
  }
  // The run's stock sentences among this step's texts and the rationales
  // of the directions it took up (stock_texts.hpp), scrubbed as those are.
  t.stock = json::Value::array();
  if (ctx.facts) {
    auto explanations = StockTexts::explanations_of(row);
    for (const auto &e : taken_up)
      if (const auto *r = e.get("rationale").as_string(); r && !text::strip(*r).empty()) explanations.push_back(*r);
    for (const auto &raw : explanations) {
      const auto count = ctx.facts->stock().count_of(raw);
      if (!count.repeated_across_kinds()) continue;
      json::Value entry = json::Value::object();
      entry.set("text", scrubbed(s, json::Value(raw)));
      entry.set("steps", static_cast<std::int64_t>(count.steps));
      entry.set("kinds", static_cast<std::int64_t>(count.kinds));
      t.stock.push_back(std::move(entry));
    }
  }
  return t;
}

} // namespace otm::packet
