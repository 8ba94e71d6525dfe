#include "partition/failed_levers.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string_view>
#include <tuple>

#include "ladder/noise.hpp"
#include "levers/lever_settings.hpp"
#include "partition/pitfall.hpp"
#include "partition/technique.hpp"
#include "record/established_fact.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "workspace/segment_kinds.hpp"

namespace otm::partition {

namespace {

// An anti-strategy segment without its discriminator (allocated once the
// run's accounts of one failed lever are merged: one_per_failed_lever).
workspace::Segment anti(Builder &b, const workspace::VersionRow &row, const std::string &kind,
                        std::optional<std::string> text, const std::string &split_by, const std::string &technique,
                        const std::string &precheck) {
  workspace::Segment s = b.common(row);
  s.record_type = "anti-strategy";
  s.marker = "t";
  s.seg_kind = kind;
  s.deadend_text = std::move(text);
  s.split_by = split_by;
  s.technique = technique;
  s.fact_precheck = precheck;
  s.disc = 0;
  return s;
}

// One account of a failed lever: a dead-end item, a prose dead-end or a
// curated pitfall, with what identifies its lever (levers/lever_settings).
struct Account {
  workspace::Segment seg;
  std::string key;                            // levers::failed_lever_key of its claim
  std::vector<levers::LeverSetting> settings; // the claim's settings with a stated value
  std::vector<std::string> setting_names;     // per setting, the code name its mention gives (setting_name)
  std::set<std::string> named;                // the levers its claim names, valued or not
  int preference = 0; // which account of a lever speaks for it: lower first (see one_per_failed_lever)
  std::int64_t n = 0;
};

Account account(const Inputs &in, workspace::Segment seg, std::string_view claim, int preference) {
  Account a;
  const std::string &dsl = seg.dsl;
  a.key = levers::failed_lever_key(in.levers, claim, dsl);
  std::set<std::string> seen;
  const std::string_view claimed = levers::claim_of(claim);
  for (auto &st : levers::settings_in(in.levers, claimed)) {
    a.named.insert(st.lever);
    if (!st.value.empty() && seen.insert(st.lever).second) {
      a.setting_names.push_back(levers::setting_name(claimed.substr(st.begin, st.end - st.begin)));
      a.settings.push_back(std::move(st));
    }
  }
  a.n = seg.n;
  a.preference = preference;
  a.seg = std::move(seg);
  return a;
}

// Whether a version failed its correctness check or quality gate.
bool failed_its_checks(const workspace::VersionRow &row) {
  return ladder::correctness_failed(json::Value(row.correctness_status)) ||
         ladder::gate_failed(json::Value(row.gate_result));
}

// The fact pre-check's context for a version (record::FactContext): its
// DSL, the trace's fixed axes, and whether it failed its correctness check
// or quality gate.
record::FactContext fact_context(const Inputs &in, const workspace::VersionRow &row) {
  return record::make_fact_context(row.dsl, in.meta.constants, failed_its_checks(row));
}

// fact_precheck(text, fact_context(in, row)), remembered by the text and
// the parts of the context that vary by row (the fixed axes are the trace's).
const std::string &precheck(TextMemo &memo, const Inputs &in, const workspace::VersionRow &row,
                            const std::string &text) {
  const bool failed = failed_its_checks(row);
  const std::string &dsl = row.dsl;
  std::string key = std::to_string(dsl.size()) + ':' + dsl + (failed ? '1' : '0');
  key += text;
  return memo.get(key, [&] { return record::fact_precheck(text, fact_context(in, row)); });
}

// Step 2: the dead-end accounts; returns the versions that produced one.
std::set<std::string> deadends(Builder &b, const Inputs &in, const std::vector<workspace::VersionRow> &rows,
                               const RowsByVersion &by_version, TextMemo &prechecks, TextMemo &techniques,
                               std::vector<Account> &out) {
  std::set<std::string> produced;
  for (const auto &row : rows) {
    if (verdict_of(row).selection != "deadend") continue;
    const std::string &ver = row.version;
    if (row.deadend_items && !row.deadend_items->empty()) {
      int nn = 0;
      for (const std::string &t : *row.deadend_items) {
        if (text::code_points(t) < record::kMinClaimChars) continue;
        const std::string &pre = precheck(prechecks, in, row, t);
        b.flag(pre, t);
        const std::string &technique = techniques.get(t, [&] { return deadend_item_technique(t); });
        workspace::Segment s = anti(b, row, workspace::kDeadendItemSegment, t, "mechanical", technique, pre);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%02d", ++nn);
        s.seg_id = "anti-" + ver + "-" + buf;
        s.measured_against = measured_against(row, by_version);
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
    workspace::Segment s =
        anti(b, row, workspace::kDeadendProseSegment, std::nullopt, "agent", deadend_prose_technique(row), pre);
    s.seg_id = "anti-" + ver + "-01";
    s.measured_against = measured_against(row, by_version);
    // Its lever is what the step says it changed.
    std::string change = row.action_description.value_or("");
    if (text::strip(change).empty()) change = strip_boilerplate(row.subject);
    out.push_back(account(in, std::move(s), change, 0));
    produced.insert(ver);
  }
  return produced;
}

void pitfalls(Builder &b, const Inputs &in, const std::vector<workspace::VersionRow> &rows,
              const RowsByVersion &by_version, const std::set<std::string> &produced, TextMemo &prechecks,
              TextMemo &techniques, std::vector<Account> &out) {
  std::vector<const workspace::VersionRow *> sorted;
  for (const auto &row : rows) sorted.push_back(&row);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const workspace::VersionRow *a, const workspace::VersionRow *c) { return a->n < c->n; });
  for (const auto *row : sorted) {
    const std::string &ver = row->version;
    if (produced.count(ver)) continue;
    const auto *list = row->pitfalls.as_array();
    if (!list) continue;
    for (std::size_t i = 0; i < list->size(); ++i) {
      auto pt = pitfall_text(((*list)[i]));
      if (text::code_points(pt.text) < record::kMinClaimChars) continue;
      std::string checked = pt.fix ? pt.text + " " + *pt.fix : pt.text;
      const std::string &pre = precheck(prechecks, in, *row, checked);
      b.flag(pre, pt.text);
      workspace::Segment s = b.common(*row);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%02d", static_cast<int>(i + 1));
      // Its own memo: an item and a pitfall of the same text may differ.
      const std::string &technique = techniques.get(pt.text, [&] { return pitfall_technique(pt.text); });
      s.seg_id = "pitfall-" + ver + "-" + buf;
      s.record_type = "anti-strategy";
      s.seg_kind = workspace::kCuratedPitfallSegment;
      s.marker = "t";
      s.split_by = "curated";
      s.deadend_text = pt.text;
      s.pitfall_fix = pt.fix;
      s.fact_precheck = pre;
      s.technique = technique;
      s.disc = 0;
      // Like a dead end's: the attempt is measured (and its diff read)
      // against the best code before it, not a reverted attempt before it.
      s.measured_against = measured_against(*row, by_version);
      out.push_back(account(in, std::move(s), pt.claim, 1));
    }
  }
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
void one_per_failed_lever(Builder &b, const Inputs &in, const std::vector<workspace::VersionRow> &rows,
                          const std::vector<Milestone> &ms, const RowsByVersion &by_version,
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
    const workspace::VersionRow *m;
    std::vector<levers::LeverSetting> settings;
    std::set<std::string> named;
  };
  std::vector<Kept> kept;
  for (const auto &m : ms) {
    if (m.kind != "milestone" && m.kind != "mega") continue;
    std::string change = change_of(*m.row);
    Kept k{m.row, levers::settings_in(in.levers, levers::claim_of(change)), {}};
    for (const auto &st : k.settings) k.named.insert(st.lever);
    kept.push_back(std::move(k));
  }
  // Every other step the run kept (below the milestone threshold too): an
  // on-or-off lever named without a value is the same lever wherever a
  // kept step names it (round 12: "persistent row loop" filed as failed in
  // a run that kept a persistent kernel three times).
  std::vector<Kept> kept_steps;
  for (const auto &row : rows) {
    if (row.reverted || row.n <= 0) continue;
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
    const workspace::VersionRow *row;
    std::vector<levers::LeverSetting> settings;
  };
  std::vector<Tried> tried;
  for (const auto &row : rows) {
    auto settings = levers::settings_in(in.levers, levers::claim_of(change_of(row)));
    if (!settings.empty()) tried.push_back({&row, std::move(settings)});
  }
  auto states_all = [](const std::vector<levers::LeverSetting> &want, const std::vector<levers::LeverSetting> &got) {
    return !want.empty() && std::all_of(want.begin(), want.end(), [&](const levers::LeverSetting &w) {
      return !w.value.empty() && std::any_of(got.begin(), got.end(), [&](const levers::LeverSetting &g) {
        return levers::same_knob(g, w) && g.value == w.value;
      });
    });
  };
  // A pitfall the run recorded on the very step that kept a change of the
  // lever it names ("without the multiple_of hint the loads stay 32-bit" on
  // the step that added the hint) is a condition of that win, not a failed
  // lever.
  auto condition_of_its_win = [&](const std::vector<std::size_t> &members, const Kept &k) {
    std::int64_t n = k.m->n;
    return std::any_of(members.begin(), members.end(), [&](std::size_t j) {
      const auto &acc = accounts[j];
      if (acc.n != n || acc.seg.seg_kind != workspace::kCuratedPitfallSegment) return false;
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
      o.set("version", accounts[j].seg.version);
      o.set("seg_id", accounts[j].seg.seg_id);
      o.set("seg_kind", accounts[j].seg.seg_kind);
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
      if (!later_versions.insert(k.m->version).second) return;
      json::Value o = json::Value::object();
      o.set("version", k.m->version);
      o.set("sha", k.m->has_commit ? json::Value(k.m->sha) : json::Value());
      o.set("measured_against", measured_against(*k.m, by_version));
      o.set("change", change_of(*k.m));
      later.push_back(std::move(o));
    };
    if (a.settings.empty() && only_on_or_off(a.named))
      for (const auto &k : kept_steps)
        if (k.m->dsl == a.seg.dsl && std::includes(k.named.begin(), k.named.end(), a.named.begin(), a.named.end()) &&
            k.m->n != a.n)
          add_later(k);
    for (const auto &k : kept) {
      if (k.m->dsl != a.seg.dsl) continue;
      bool own_win = condition_of_its_win(members, k);
      if (!own_win) {
        if (a.settings.empty()) continue;
        bool all = std::all_of(a.settings.begin(), a.settings.end(), [&](const levers::LeverSetting &want) {
          return std::any_of(k.settings.begin(), k.settings.end(), [&](const levers::LeverSetting &got) {
            return levers::same_knob(got, want) && got.value == want.value;
          });
        });
        if (!all) continue;
      }
      add_later(k);
    }
    // The kept steps stating another value of the same lever (kit 23: "BLOCK_S
    // 1->16 does not build" where the run kept BLOCK_S=8): what of the lever
    // the run built and kept, said beside the failure. Levers stated
    // without a value, and steps that also state the failed value, are not.
    json::Value other_settings = json::Value::array();
    for (const auto &k : kept_steps) {
      if (k.m->dsl != a.seg.dsl || k.m->n == a.n || a.settings.empty()) continue;
      const std::string change = change_of(*k.m);
      const std::string_view claim = levers::claim_of(change);
      for (const auto &got : levers::settings_in(in.levers, claim)) {
        const std::string mention(claim.substr(got.begin, got.end - got.begin)), name = levers::setting_name(mention);
        // The same setting name ("BLOCK_M", not "BLOCK_N" of the same
        // lever) or tile axis (`TILE_D`, `BLOCK_D`); a setting that is a
        // name (a layout: NHWC) is the lever's whatever the text calls it
        // ("channels_last", "channel-innermost layout").
        bool other = false;
        for (std::size_t w = 0; w < a.settings.size(); ++w)
          other =
              other || (a.settings[w].lever == got.lever &&
                        (a.setting_names[w] == name ||
                         (levers::is_named_value(got.value) && in.levers.named_settings_are_alternatives(got.lever)) ||
                         (!got.axis.empty() && a.settings[w].axis == got.axis)) &&
                        !got.value.empty() && a.settings[w].value != got.value);
        if (!other || later_versions.count(k.m->version)) continue;
        json::Value o = json::Value::object();
        o.set("version", k.m->version);
        o.set("sha", k.m->has_commit ? json::Value(k.m->sha) : json::Value());
        // Its mention as written when it names the setting by a name or says
        // where it moved from ("BLOCK_D 32->64"): what an undo is read against.
        static const text::Regex moved(R"((?:->|\x{2192}))");
        o.set("setting", name.empty() || levers::is_named_value(got.value) || moved.contains(mention)
                             ? mention
                             : name + "=" + got.value);
        other_settings.push_back(std::move(o));
        break;
      }
    }
    json::Value others = json::Value::array();
    for (const auto &t : tried)
      if (t.row->n != a.n && states_all(a.settings, t.settings)) others.push_back(t.row->version);
    a.seg.tried_in_the_run = std::move(others);
    a.seg.occurrences = std::move(occ);
    a.seg.lever_settings = std::move(settings);
    a.seg.kept_in_the_run = std::move(later);
    a.seg.kept_with_other_settings = std::move(other_settings);
    a.seg.disc = b.allocate(a.seg, "anti-strategy", a.seg.technique);
    b.finish(a.seg);
  }
}

} // namespace

void failed_lever_segments(Builder &b, const Inputs &in, const std::vector<workspace::VersionRow> &rows,
                           const std::vector<Milestone> &ms, const RowsByVersion &by_version, Result &r) {
  TextMemo prechecks, item_techniques, pitfall_techniques;
  std::vector<Account> accounts;
  auto produced = deadends(b, in, rows, by_version, prechecks, item_techniques, accounts);
  pitfalls(b, in, rows, by_version, produced, prechecks, pitfall_techniques, accounts);
  one_per_failed_lever(b, in, rows, ms, by_version, accounts, r);
}

} // namespace otm::partition
