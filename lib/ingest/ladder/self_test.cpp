#include "ladder/self_test.hpp"

#include <cstdio>

#include "ladder/ladder.hpp"
#include "text/pyformat.hpp"

namespace otm::ladder {

namespace {

json::Value row(int n, json::Value geo, const char *subject = nullptr, bool reverted = false) {
  char sha[41];
  std::snprintf(sha, sizeof sha, "%040x", n);
  json::Value r = json::Value::object();
  std::string v = "v" + std::to_string(n);
  r.set("version", v);
  r.set("n", n);
  r.set("has_commit", true);
  r.set("dsl", "triton");
  r.set("sha", std::string(sha));
  if (subject) r.set("subject", std::string(subject));
  if (reverted) r.set("reverted", true);
  r.set("geomean_us", std::move(geo));
  return r;
}

std::string describe(const std::vector<Milestone> &ms) {
  std::string s = "[";
  for (const auto &m : ms) s += (s.size() > 1 ? ", (" : "(") + m.version + ", " + std::string(kind_name(m.kind)) + ")";
  return s + "]";
}

} // namespace

std::vector<json::Value> self_test_rows() {
  return {
      row(1, 100.0),
      row(2, 99.9),
      row(3, 75.0),
      row(4, 500.0),
      row(5, 79.0, "v5: retune (+1.2%)"),
      row(6, 60.0, "v6: flat-within-noise"),
      row(7, 58.0),
      row(8, 95.0,
          "v8: reverted (dead-end recorded: shared-memory staging is slower because the tile no longer fits in one "
          "bank set)",
          true),
      row(9, nullptr, "v9: infra outage, not_run"),
  };
}

SelfTestReport run_self_test(const config::LadderThresholds &t) {
  SelfTestReport rep;
  rep.header = "ladder self-test: milestone >= " + text::fixed(t.milestone_pct, 1) +
               "%, mega >= " + text::fixed(t.mega_pct, 1) + "%, re-baselining factor " +
               text::fixed(t.rebaseline_factor, 1) + "x";
  auto rows = self_test_rows();
  Result r = select(rows, t);
  auto check = [&](bool ok, const std::string &what) { (ok ? rep.passed : rep.failed).push_back(what); };

  check(describe(r.milestones) == "[(v1, baseline), (v3, mega), (v7, milestone)]",
        "milestones are [(v1, baseline), (v3, mega), (v7, milestone)], got " + describe(r.milestones));
  bool v3 = r.milestones.size() > 1 && r.milestones[1].improve_pct && *r.milestones[1].improve_pct == 24.92;
  check(v3, "v3 is mega with improve_pct 24.92 (against 99.9)");
  check(r.deadends.size() == 1 && r.deadends[0].version == "v8", "dead-ends are exactly [v8]");
  auto reason_of = [&](const std::string &v) -> std::string {
    for (const auto &x : r.rejections)
      if (x.version == v) return x.reason;
    return "(not rejected)";
  };
  auto expect = [&](const std::string &v, const std::string &fragment) {
    std::string got = reason_of(v);
    check(got.find(fragment) != std::string::npos, v + " rejected '" + fragment + "', got '" + got + "'");
  };
  expect("v2", "under 1.5% (0.10%)");
  expect("v4", "harness re-baselining (7x worse)");
  expect("v5", "under 1.5% (-5.33%)");
  // The reference words v6 as "under 1.5% (20.00%)"; otm names the cause
  // (docs/differences.md, Ladder). Still rejected, still lowers the floor.
  expect("v6", "declares no change (20.00%)");
  expect("v9", "infrastructure");
  bool v7 = r.milestones.size() > 2 && r.milestones[2].improve_pct && *r.milestones[2].improve_pct > 0 &&
            *r.milestones[2].improve_pct < 5;
  check(v7, "v7 carries a truthy improve_pct below 5 (3.33 against v6's 60.0)");
  check(r.best && *r.best == 58.0, "the floor ends at 58.0 (v6 lowered it to 60.0 before v7)");
  return rep;
}

} // namespace otm::ladder
