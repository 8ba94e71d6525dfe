#include "partition/partition.hpp"

#include <algorithm>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "error/error.hpp"
#include "ladder/noise.hpp"
#include "levers/lever_settings.hpp"
#include "partition/pitfall.hpp"
#include "partition/technique.hpp"
#include "record/established_fact.hpp"
#include "record/id_format.hpp"
#include "text/utf8.hpp"
#include "workspace/segment_kinds.hpp"

namespace otm::partition {

namespace {

bool is_milestone_selection(const std::string &s) {
  return s == "baseline" || s == "milestone" || s == "mega" || s == "final";
}

json::Value or_null(const json::Value &v) { return v.is_null() ? json::Value() : v; }

class Builder {
public:
  Builder(const Inputs &in, Result &r)
      : in_(in), r_(r), alloc_(in.known, in.meta.source_repo), slug_(in.meta.operator_slug),
        family_(in.meta.workload_family) {
    r_.other_sources = in.coverage.other_sources(in.meta.source_repo);
    r_.comparable = r_.other_sources.empty();
    r_.seeds = alloc_.seeds();
  }

  json::Value common(const json::Value &row) const {
    json::Value s = json::Value::object();
    s.set("version", row.get("version"));
    s.set("n", row.get("n"));
    for (const char *k : {"sha", "parent", "date"}) s.set(k, or_null(row.get(k)));
    s.set("dsl", row.get("dsl").is_string() ? row.get("dsl") : json::Value("any"));
    s.set("operator_slug", slug_);
    s.set("workload_family", family_);
    s.set("vendor", in_.meta.vendor);
    s.set("arch", in_.meta.arch);
    s.set("product", in_.meta.product);
    s.set("source_repo", in_.meta.source_repo);
    s.set("comparable", r_.comparable);
    s.set("ncu_dirs", row.get("ncu_usable_dirs").is_array() ? row.get("ncu_usable_dirs") : json::Value::array());
    s.set("report_dirs", row.get("report_dirs").is_array() ? row.get("report_dirs") : json::Value::array());
    return s;
  }

  // Allocates the discriminator and appends `disc`, then (after the caller's
  // remaining keys) `finish` adds id and episode key.
  int allocate(const json::Value &seg, const std::string &record_type, const std::string &technique) {
    record::IdParts p = parts(seg, record_type, technique, 0);
    std::string id = record::make_id(p);
    return alloc_.allocate(id.substr(0, id.rfind('-')), p.marker, seg.string_or("version"));
  }

  void finish(json::Value &seg) {
    if (++per_version_[seg.string_or("version")] > in_.max_segments_per_version) {
      ++r_.over_limit[seg.string_or("version")];
      return;
    }
    auto p = parts(seg, seg.string_or("record_type"), seg.string_or("technique"),
                   static_cast<int>(seg.get("disc").as_int().value_or(0)));
    seg.set("id", record::make_id(p));
    seg.set("episode_key",
            record::make_episode_key(seg.string_or("arch"), seg.string_or("dsl"), slug_, seg.string_or("technique")));
    r_.segments.push_back(std::move(seg));
  }

  void flag(const std::string &reason, const std::string &text) {
    if (reason != "ok") r_.flagged.push_back({reason, std::string(text::prefix_code_points(text, 110))});
  }

private:
  record::IdParts parts(const json::Value &seg, const std::string &record_type, const std::string &technique,
                        int disc) const {
    std::string product = seg.get("product").is_string() ? seg.string_or("product") : "";
    return record::IdParts{seg.string_or("vendor"),
                           product.empty() ? "any" : product,
                           seg.string_or("dsl"),
                           slug_,
                           family_,
                           record_type,
                           technique,
                           record::marker_for(record_type),
                           disc};
  }

  const Inputs &in_;
  Result &r_;

public:
  IdAllocator alloc_;
  std::map<std::string, std::size_t> per_version_;

private:
  std::string slug_, family_;
};

// The first row of each version, found without a search of every row per
// segment (that search was a fifth of the stage at 3,000 versions).
class RowsByVersion {
public:
  explicit RowsByVersion(const std::vector<json::Value> &rows) {
    for (const auto &row : rows)
      if (const auto *v = row.get("version").as_string()) first_.try_emplace(*v, &row);
  }
  const json::Value *find(const std::string &version) const {
    auto it = first_.find(version);
    return it == first_.end() ? nullptr : it->second;
  }

private:
  std::unordered_map<std::string_view, const json::Value *> first_;
};

// The version a milestone's gain is measured against (the ladder's
// best_before_version) and its commit: a strategy's diff starts there.
json::Value measured_against(const json::Value &m, const RowsByVersion &rows) {
  const auto *version = m.get("best_before_version").as_string();
  if (!version) return {};
  const json::Value *row = rows.find(*version);
  if (!row) return {};
  json::Value on = json::Value::object();
  on.set("version", *version);
  on.set("sha", or_null(row->get("sha")));
  return on;
}

// Pure derivations of a text (its technique slug, its fact pre-check),
// computed once per distinct input: a trace repeats its pitfalls and
// dead-end items version after version, and each costs a dozen regexes.
class TextMemo {
public:
  template <typename F> const std::string &get(const std::string &key, F compute) {
    auto it = memo_.find(key);
    if (it == memo_.end()) it = memo_.emplace(key, compute()).first;
    return it->second;
  }

private:
  std::unordered_map<std::string, std::string> memo_;
};

void strategies(Builder &b, const std::vector<json::Value> &ms, const RowsByVersion &rows) {
  const json::Value *previous = nullptr;
  for (const auto &m : ms) {
    std::string kind = m.string_or("kind");
    if (kind == "baseline") {
      previous = &m;
      continue;
    }
    json::Value s = b.common(m);
    std::string technique = strategy_technique(m);
    s.set("seg_id", "strategy-" + m.string_or("version"));
    s.set("record_type", "strategy");
    s.set("seg_kind", std::string(workspace::kMilestoneSegmentPrefix) + kind);
    s.set("marker", "s");
    s.set("technique", technique);
    s.set("disc", b.allocate(s, "strategy", technique));
    s.set("improve_pct", or_null(m.get("improve_pct")));
    s.set("geomean_us", or_null(m.get("geomean_us")));
    s.set("kind", kind);
    json::Value on = json::Value::object();
    on.set("version", previous ? previous->get("version") : json::Value());
    on.set("is_baseline", previous ? json::Value(previous->string_or("kind") == "baseline") : json::Value());
    on.set("geomean_us", previous ? or_null(previous->get("geomean_us")) : json::Value());
    on.set("description", previous ? or_null(previous->get("action_description")) : json::Value());
    s.set("builds_on", on);
    s.set("measured_against", measured_against(m, rows));
    b.finish(s);
    previous = &m;
  }
}

// An anti-strategy segment without its discriminator (allocated once the
// run's accounts of one failed lever are merged: one_per_failed_lever).
json::Value anti(Builder &b, const json::Value &row, const std::string &kind, const json::Value &text,
                 const std::string &split_by, const std::string &technique, const std::string &precheck) {
  json::Value s = b.common(row);
  s.set("record_type", "anti-strategy");
  s.set("marker", "t");
  s.set("seg_kind", kind);
  s.set("deadend_text", text);
  s.set("split_by", split_by);
  s.set("technique", technique);
  s.set("fact_precheck", precheck);
  s.set("disc", 0);
  return s;
}

// One account of a failed lever: a dead-end item, a prose dead-end or a
// curated pitfall, with what identifies its lever (levers/lever_settings).
struct Account {
  json::Value seg;
  std::string key;                            // levers::failed_lever_key of its claim
  std::vector<levers::LeverSetting> settings; // the claim's settings with a stated value
  std::set<std::string> named;                // the levers its claim names, valued or not
  int preference = 0; // which account of a lever speaks for it: lower first (see one_per_failed_lever)
  std::int64_t n = 0;
};

Account account(const Inputs &in, json::Value seg, std::string_view claim, int preference) {
  Account a;
  std::string dsl = seg.string_or("dsl");
  a.key = levers::failed_lever_key(in.levers, claim, dsl);
  std::set<std::string> seen;
  for (auto &st : levers::settings_in(in.levers, levers::claim_of(claim))) {
    a.named.insert(st.lever);
    if (!st.value.empty() && seen.insert(st.lever).second) a.settings.push_back(std::move(st));
  }
  a.n = seg.get("n").as_int().value_or(0);
  a.preference = preference;
  a.seg = std::move(seg);
  return a;
}

// The fact pre-check's context for a version (record::FactContext): its
// DSL, the trace's fixed axes, and whether it failed its correctness check
// or quality gate.
record::FactContext fact_context(const Inputs &in, const json::Value &row) {
  return record::make_fact_context(row.string_or("dsl"), in.meta.constants,
                                   ladder::correctness_failed(row.get("correctness_status")) ||
                                       ladder::gate_failed(row.get("gate_result")));
}

// fact_precheck(text, fact_context(in, row)), remembered by the text and
// the parts of the context that vary by row (the fixed axes are the trace's).
const std::string &precheck(TextMemo &memo, const Inputs &in, const json::Value &row, const std::string &text) {
  const bool failed =
      ladder::correctness_failed(row.get("correctness_status")) || ladder::gate_failed(row.get("gate_result"));
  const std::string dsl = row.string_or("dsl");
  std::string key = std::to_string(dsl.size()) + ':' + dsl + (failed ? '1' : '0');
  key += text;
  return memo.get(key, [&] { return record::fact_precheck(text, fact_context(in, row)); });
}

// Step 2: the dead-end accounts; returns the versions that produced one.
std::set<std::string> deadends(Builder &b, const Inputs &in, const RowsByVersion &by_version, TextMemo &prechecks,
                               TextMemo &techniques, std::vector<Account> &out) {
  std::set<std::string> produced;
  for (const auto &row : in.rows) {
    if (row.string_or("selection") != "deadend") continue;
    std::string ver = row.string_or("version");
    const auto *items = row.get("deadend_items").as_array();
    if (items && !items->empty()) {
      int nn = 0;
      for (const auto &item : *items) {
        std::string t = item.is_string() ? *item.as_string() : item.python_str();
        if (text::code_points(t) < record::kMinClaimChars) continue;
        const std::string &pre = precheck(prechecks, in, row, t);
        b.flag(pre, t);
        const std::string &technique = techniques.get(t, [&] { return deadend_item_technique(t); });
        json::Value s = anti(b, row, workspace::kDeadendItemSegment, t, "mechanical", technique, pre);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%02d", ++nn);
        s.set("seg_id", "anti-" + ver + "-" + buf);
        s.set("measured_against", measured_against(row, by_version));
        // The attempt's code holds the first lever of a list; the later
        // ones speak for their lever only when no other account does.
        out.push_back(account(in, std::move(s), t, nn == 1 ? 0 : 2));
        produced.insert(ver);
      }
      continue;
    }
    std::string all = text_of(row);
    if (text::code_points(all) < in.prose_min_chars) continue;
    const std::string &pre = precheck(prechecks, in, row, all);
    b.flag(pre, all);
    json::Value s =
        anti(b, row, workspace::kDeadendProseSegment, json::Value(), "agent", deadend_prose_technique(row), pre);
    s.set("seg_id", "anti-" + ver + "-01");
    s.set("measured_against", measured_against(row, by_version));
    // Its lever is what the step says it changed.
    std::string change = row.string_or("action_description");
    if (text::strip(change).empty()) change = strip_boilerplate(row.string_or("subject"));
    out.push_back(account(in, std::move(s), change, 0));
    produced.insert(ver);
  }
  return produced;
}

void pitfalls(Builder &b, const Inputs &in, const RowsByVersion &by_version, const std::set<std::string> &produced,
              TextMemo &prechecks, TextMemo &techniques, std::vector<Account> &out) {
  std::vector<const json::Value *> sorted;
  for (const auto &row : in.rows) sorted.push_back(&row);
  std::stable_sort(sorted.begin(), sorted.end(), [](const json::Value *a, const json::Value *c) {
    return a->get("n").as_int().value_or(0) < c->get("n").as_int().value_or(0);
  });
  for (const auto *row : sorted) {
    std::string ver = row->string_or("version");
    if (produced.count(ver)) continue;
    const auto *list = row->get("pitfalls").as_array();
    if (!list) continue;
    for (std::size_t i = 0; i < list->size(); ++i) {
      auto pt = pitfall_text(((*list)[i]));
      if (text::code_points(pt.text) < record::kMinClaimChars) continue;
      std::string checked = pt.fix ? pt.text + " " + *pt.fix : pt.text;
      const std::string &pre = precheck(prechecks, in, *row, checked);
      b.flag(pre, pt.text);
      json::Value s = b.common(*row);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%02d", static_cast<int>(i + 1));
      // Its own memo: an item and a pitfall of the same text may differ.
      const std::string &technique = techniques.get(pt.text, [&] { return pitfall_technique(pt.text); });
      s.set("seg_id", "pitfall-" + ver + "-" + buf);
      s.set("record_type", "anti-strategy");
      s.set("seg_kind", workspace::kCuratedPitfallSegment);
      s.set("marker", "t");
      s.set("split_by", "curated");
      s.set("deadend_text", pt.text);
      s.set("pitfall_fix", pt.fix ? json::Value(*pt.fix) : json::Value());
      s.set("fact_precheck", pre);
      s.set("technique", technique);
      s.set("disc", 0);
      // Like a dead end's: the attempt is measured (and its diff read)
      // against the best code before it, not a reverted attempt before it.
      s.set("measured_against", measured_against(*row, by_version));
      out.push_back(account(in, std::move(s), pt.claim, 1));
    }
  }
}

// What a milestone says it changed: its step record's description, else
// its commit subject.
std::string change_of(const json::Value &row) {
  std::string change = row.string_or("action_description");
  return text::strip(change).empty() ? row.string_or("subject") : change;
}

// Issue 25: one anti-strategy segment per failed lever of the run, not one
// per account of it. Accounts whose claims name the same levers at the same
// stated values (levers::failed_lever_key; the same words when they state
// no value) are one lever; the account that speaks for it is a dead-end
// item first in its list or a prose dead-end (whose diff is the attempt),
// else a curated pitfall, else a later list item, the earliest of those.
// It lists every account (`occurrences`), the settings that identify the
// lever (`lever_settings`), and the milestones whose change states the
// same settings (`kept_in_the_run`, before or after the failure: the
// drafter refuses a lever the run kept as a win; a win before it is the
// code the attempt departed from, so the account contradicts it too).
void one_per_failed_lever(Builder &b, const Inputs &in, const std::vector<json::Value> &ms, const RowsByVersion &rows,
                          std::vector<Account> &accounts, Result &r) {
  std::map<std::string, std::vector<std::size_t>> by_key;
  for (std::size_t i = 0; i < accounts.size(); ++i) by_key[accounts[i].key].push_back(i);
  std::vector<std::size_t> speaker(accounts.size(), SIZE_MAX);
  for (auto &[key, members] : by_key) {
    std::size_t best = members.front();
    for (auto i : members) {
      const auto &a = accounts[i], &c = accounts[best];
      if (std::tie(a.preference, a.n) < std::tie(c.preference, c.n)) best = i;
    }
    for (auto i : members) speaker[i] = best;
  }
  // Milestones that kept a change, with the settings their change states.
  struct Kept {
    const json::Value *m;
    std::vector<levers::LeverSetting> settings;
    std::set<std::string> named;
  };
  std::vector<Kept> kept;
  for (const auto &m : ms) {
    std::string kind = m.string_or("kind");
    if (kind != "milestone" && kind != "mega") continue;
    std::string change = change_of(m);
    Kept k{&m, levers::settings_in(in.levers, levers::claim_of(change)), {}};
    for (const auto &st : k.settings) k.named.insert(st.lever);
    kept.push_back(std::move(k));
  }
  // Every other step the run kept (below the milestone threshold too): an
  // on-or-off lever named without a value is the same lever wherever a
  // kept step names it (round 12: "persistent row loop" filed as failed in
  // a run that kept a persistent kernel three times).
  std::vector<Kept> kept_steps;
  for (const auto &row : in.rows) {
    if (row.get("reverted").truthy() || row.get("n").as_int().value_or(0) <= 0) continue;
    Kept k{&row, levers::settings_in(in.levers, levers::claim_of(change_of(row))), {}};
    for (const auto &st : k.settings) k.named.insert(st.lever);
    if (!k.named.empty()) kept_steps.push_back(std::move(k));
  }
  auto only_on_or_off = [&](const std::set<std::string> &named) {
    return !named.empty() &&
           std::all_of(named.begin(), named.end(), [&](const std::string &l) { return in.levers.on_or_off(l); });
  };
  // Every step of the run with the settings its change states: a failure
  // the run's other tries of the same setting contradict (an accuracy
  // failure where another try passed) is no fact (`tried_in_the_run`).
  struct Tried {
    const json::Value *row;
    std::vector<levers::LeverSetting> settings;
  };
  std::vector<Tried> tried;
  for (const auto &row : in.rows) {
    auto settings = levers::settings_in(in.levers, levers::claim_of(change_of(row)));
    if (!settings.empty()) tried.push_back({&row, std::move(settings)});
  }
  auto states_all = [](const std::vector<levers::LeverSetting> &want, const std::vector<levers::LeverSetting> &got) {
    return !want.empty() && std::all_of(want.begin(), want.end(), [&](const levers::LeverSetting &w) {
      return !w.value.empty() && std::any_of(got.begin(), got.end(), [&](const levers::LeverSetting &g) {
        return g.lever == w.lever && g.value == w.value;
      });
    });
  };
  // A pitfall the run recorded on the very step that kept a change of the
  // lever it names ("without the multiple_of hint the loads stay 32-bit" on
  // the step that added the hint) is a condition of that win, not a failed
  // lever.
  auto condition_of_its_win = [&](const std::vector<std::size_t> &members, const Kept &k) {
    std::int64_t n = k.m->get("n").as_int().value_or(-1);
    return std::any_of(members.begin(), members.end(), [&](std::size_t j) {
      const auto &acc = accounts[j];
      if (acc.n != n || acc.seg.string_or("seg_kind") != workspace::kCuratedPitfallSegment) return false;
      return std::any_of(acc.named.begin(), acc.named.end(),
                         [&](const std::string &l) { return k.named.count(l) > 0; });
    });
  };
  for (std::size_t i = 0; i < accounts.size(); ++i) {
    if (speaker[i] != i) {
      ++r.merged_occurrences;
      continue;
    }
    auto &a = accounts[i];
    const auto &members = by_key[a.key];
    std::vector<std::size_t> order(members.begin(), members.end());
    std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return accounts[x].n < accounts[y].n; });
    json::Value occ = json::Value::array();
    for (auto j : order) {
      json::Value o = json::Value::object();
      o.set("version", accounts[j].seg.get("version"));
      o.set("seg_id", accounts[j].seg.get("seg_id"));
      o.set("seg_kind", accounts[j].seg.get("seg_kind"));
      occ.push_back(std::move(o));
    }
    json::Value settings = json::Value::array();
    for (const auto &st : a.settings) {
      json::Value o = json::Value::object();
      o.set("lever", st.lever);
      o.set("value", st.value);
      settings.push_back(std::move(o));
    }
    json::Value later = json::Value::array();
    std::set<std::string> later_versions;
    auto add_later = [&](const Kept &k) {
      if (!later_versions.insert(k.m->string_or("version")).second) return;
      json::Value o = json::Value::object();
      o.set("version", k.m->get("version"));
      o.set("sha", or_null(k.m->get("sha")));
      o.set("measured_against", measured_against(*k.m, rows));
      o.set("change", change_of(*k.m));
      later.push_back(std::move(o));
    };
    if (a.settings.empty() && only_on_or_off(a.named))
      for (const auto &k : kept_steps)
        if (k.m->string_or("dsl") == a.seg.string_or("dsl") &&
            std::includes(k.named.begin(), k.named.end(), a.named.begin(), a.named.end()) &&
            k.m->get("n").as_int().value_or(-1) != a.n)
          add_later(k);
    for (const auto &k : kept) {
      if (k.m->string_or("dsl") != a.seg.string_or("dsl")) continue;
      bool own_win = condition_of_its_win(members, k);
      if (!own_win) {
        if (a.settings.empty()) continue;
        bool all = std::all_of(a.settings.begin(), a.settings.end(), [&](const levers::LeverSetting &want) {
          return std::any_of(k.settings.begin(), k.settings.end(), [&](const levers::LeverSetting &got) {
            return got.lever == want.lever && got.value == want.value;
          });
        });
        if (!all) continue;
      }
      add_later(k);
    }
    json::Value others = json::Value::array();
    for (const auto &t : tried)
      if (t.row->get("n").as_int().value_or(-1) != a.n && states_all(a.settings, t.settings))
        others.push_back(t.row->get("version"));
    a.seg.set("tried_in_the_run", std::move(others));
    a.seg.set("occurrences", std::move(occ));
    a.seg.set("lever_settings", std::move(settings));
    a.seg.set("kept_in_the_run", std::move(later));
    a.seg.set("disc", b.allocate(a.seg, "anti-strategy", a.seg.string_or("technique")));
    b.finish(a.seg);
  }
}

void reference_kernels(Builder &b, const Inputs &in, const std::vector<json::Value> &ms, const RowsByVersion &rows) {
  if (ms.empty()) return;
  const json::Value *last = &ms.front();
  for (const auto &m : ms)
    if (m.get("n").as_int().value_or(0) > last->get("n").as_int().value_or(0)) last = &m;
  json::Value f = b.common(*last);
  f.set("seg_id", "refk-final");
  f.set("record_type", "reference-kernel");
  f.set("seg_kind", workspace::kFinalKernelSegment);
  f.set("marker", "r");
  f.set("technique", "reference-impl");
  f.set("disc", b.allocate(f, "reference-kernel", "reference-impl"));
  f.set("kernel_file", "kernel.py");
  b.finish(f);
  int mega_index = 0;
  for (const auto &m : ms) {
    if (m.string_or("kind") != "mega") continue;
    ++mega_index;
    std::string ver = m.string_or("version");
    // The final kernel already is this version's reference kernel.
    if (ver == last->string_or("version")) continue;
    std::string path = "versions/kernel_" + ver + ".py";
    if (!in.snapshot_exists || !in.snapshot_exists(path)) continue;
    json::Value s = b.common(m);
    std::string technique = "reference-impl-milestone" + std::to_string(mega_index);
    s.set("seg_id", "refk-" + ver);
    s.set("record_type", "reference-kernel");
    s.set("seg_kind", workspace::kMegaSnapshotSegment);
    s.set("marker", "r");
    s.set("technique", technique);
    s.set("disc", b.allocate(s, "reference-kernel", technique));
    s.set("kernel_file", path);
    // The code its jump is measured against: a snapshot whose code runs
    // the same is a re-measurement, no milestone kernel (the packet says).
    s.set("measured_against", measured_against(m, rows));
    // The final kernel's commit: a snapshot whose code runs as the final
    // kernel's is that record again.
    json::Value final_kernel = json::Value::object();
    final_kernel.set("version", last->get("version"));
    final_kernel.set("sha", or_null(last->get("sha")));
    s.set("final_kernel", final_kernel);
    b.finish(s);
  }
}

[[noreturn]] void refuse(const std::string &what, const std::vector<std::string> &ids, const std::string &fix) {
  std::string list;
  for (std::size_t i = 0; i < ids.size() && i < 5; ++i) list += (i ? ", " : "") + ids[i];
  throw Error(ErrorKind::NegativeVerdict, what + ": " + list + (ids.size() > 5 ? ", ..." : "") + "; " + fix);
}

} // namespace

std::vector<json::Value> milestones(const std::vector<json::Value> &rows) {
  std::vector<json::Value> out;
  std::optional<json::Value> final_row;
  for (const auto &row : rows) {
    std::string sel = row.string_or("selection");
    if (!is_milestone_selection(sel)) continue;
    json::Value m = row;
    m.set("kind", sel);
    m.set("improve_pct", sel == "baseline" || sel == "final" ? json::Value() : or_null(row.get("improve_pct")));
    if (sel == "final")
      final_row = std::move(m);
    else
      out.push_back(std::move(m));
  }
  if (final_row) out.push_back(std::move(*final_row));
  return out;
}

Result run(const Inputs &in) {
  Result r;
  Builder b(in, r);
  auto ms = milestones(in.rows);
  const RowsByVersion by_version(in.rows);
  TextMemo prechecks, item_techniques, pitfall_techniques;
  strategies(b, ms, by_version);
  std::vector<Account> accounts;
  auto produced = deadends(b, in, by_version, prechecks, item_techniques, accounts);
  pitfalls(b, in, by_version, produced, prechecks, pitfall_techniques, accounts);
  one_per_failed_lever(b, in, ms, by_version, accounts, r);
  reference_kernels(b, in, ms, by_version);
  r.reused = b.alloc_.reused();

  std::set<std::string> seen, seen_seg, reused(r.reused.begin(), r.reused.end());
  std::vector<std::string> dup_segs;
  for (const auto &s : r.segments)
    if (!seen_seg.insert(s.string_or("seg_id")).second) dup_segs.push_back(s.string_or("seg_id"));
  if (!dup_segs.empty())
    refuse("the run produced the same segment twice", dup_segs,
           "a version appears twice in the ladder output; re-run otm-ingest and otm-ladder");
  std::set<std::string> live(in.live_ids.begin(), in.live_ids.end());
  std::vector<std::string> dups, clashes;
  for (const auto &s : r.segments) {
    std::string id = s.string_or("id");
    if (!seen.insert(id).second)
      dups.push_back(id);
    else if (live.count(id) && !reused.count(id))
      clashes.push_back(id);
  }
  if (!dups.empty())
    refuse("the run produced the same id twice", dups,
           "two segments share a version, technique and marker number; report this trace");
  if (!clashes.empty())
    refuse("ids already in the live store", clashes,
           "the store changed underneath; re-run otm-recon and otm-partition");
  return r;
}

} // namespace otm::partition
