#include "ladder/ladder.hpp"

#include <algorithm>
#include <utility>

#include "ladder/noise.hpp"
#include "text/pyformat.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::ladder {

std::string_view kind_name(Kind k) {
  switch (k) {
  case Kind::Baseline: return "baseline";
  case Kind::Milestone: return "milestone";
  case Kind::Mega: return "mega";
  case Kind::Final: return "final";
  }
  return "milestone";
}

namespace {

bool is_reverted(const json::Value &row) { return row.get("has_commit").truthy() && row.get("reverted").truthy(); }

// The ordering key for "largest n": the row's int `n`, else the digits of
// its version key (as ingest computes n).
long long n_of(const json::Value &row) {
  if (auto n = row.get("n").as_int()) return *n;
  long long n = 0;
  for (char c : row.string_or("version"))
    if (c >= '0' && c <= '9') n = n * 10 + (c - '0');
  return n;
}

// The ratchet's state while visiting the rows.
class Ratchet {
public:
  Ratchet(const std::vector<json::Value> &rows, const config::LadderThresholds &t) : rows_(rows), t_(t) {
    r_.judgements.resize(rows.size());
    final_ok_.assign(rows.size(), false);
  }

  Result run() {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      visit(i);
      r_.judgements[i].best_after_us = best_;
    }
    pick_final();
    r_.best = best_;
    return std::move(r_);
  }

private:
  const std::vector<json::Value> &rows_;
  config::LadderThresholds t_;
  Result r_;
  std::optional<double> best_;
  std::string best_version_; // the version that set best_
  // A commit between versions that changed how the run measures, not yet
  // met by a kept measurement: the next one is measured the new way.
  std::optional<std::string> measurement_change_;
  // Versions the ratchet accepted as measurements of reachable code: only
  // these may become `final` (milestones, and versions rejected solely for
  // a too-small or disclaimed gain).
  std::vector<bool> final_ok_;

  std::string version(std::size_t i) const { return rows_[i].string_or("version"); }

  void reject(std::size_t i, std::string reason) {
    r_.judgements[i].selection = "rejected";
    r_.judgements[i].reason = reason;
    r_.rejections.push_back({i, version(i), std::move(reason)});
  }

  void milestone(std::size_t i, Kind k, std::optional<double> improve) {
    r_.judgements[i].selection = std::string(kind_name(k));
    r_.milestones.push_back({i, version(i), k, improve});
    final_ok_[i] = true;
  }

  void visit(std::size_t i) {
    const json::Value &row = rows_[i];
    if (auto change = measurement_changed_before(row, t_.measurement_change_commits.get()))
      measurement_change_ = std::move(change);
    if (is_reverted(row)) {
      // The code a failed attempt was tried on: where its diff starts and
      // what it measured slower than, whatever else the ratchet says of it.
      if (best_) r_.judgements[i].best_before_version = best_version_;
      if (auto why = noise_reason(row, false)) return reject(i, *why);
      if (text::code_points(text_of(row)) > t_.deadend_min_chars) {
        r_.judgements[i].selection = "deadend";
        r_.deadends.push_back({i, version(i)});
        return;
      }
      return reject(i, "reverted, nothing said");
    }
    if (auto why = noise_reason(row, true)) return reject(i, *why);
    auto geo = usable_geomean(row);
    if (!geo) return reject(i, "no usable geomean");
    if (!row.get("sha").truthy()) return reject(i, "no commit, code not reachable");
    if (!best_) {
      best_ = geo;
      best_version_ = version(i);
      measurement_change_.reset();
      return milestone(i, Kind::Baseline, std::nullopt);
    }
    const double best = *best_;
    double improve = (best - *geo) / best * 100.0;
    Judgement &j = r_.judgements[i];
    j.best_before_us = best;
    j.best_before_version = best_version_;
    j.improve_pct = text::round_to(improve, 2);
    // The same code measured a new way (round 13: a harness that flushes
    // L2, 45.3 -> 47.5 us, after which the run's best kernel measured
    // 46.8 us and the final kernel stayed the old harness's): the floor
    // moves to it, either way, and later versions are compared with it.
    if (declares_new_measurement(row) && !is_reverted(row)) {
      best_ = geo;
      best_version_ = version(i);
      final_ok_[i] = true;
      return reject(i, "re-baseline: the measurement changed (" + text::fixed(*geo / best, 2) + "x the floor)");
    }
    // The first kept version after a commit that changed how the run
    // measures (kits 60 and 61: a 9.1 % "gain" that was the new harness's
    // 10 %): its change and the harness's cannot be told apart, so it is
    // the floor later versions are compared with, and no milestone.
    if (measurement_change_) {
      const std::string change = *std::exchange(measurement_change_, std::nullopt);
      best_ = geo;
      best_version_ = version(i);
      final_ok_[i] = true;
      return reject(i, "re-baseline: measured after the run changed how it measures ('" + change + "', " +
                           text::fixed(*geo / best, 2) + "x the floor)");
    }
    if (*geo > best * t_.rebaseline_factor)
      return reject(i, "harness re-baselining (" + text::fixed(*geo / best, 0) + "x worse)");
    // A win beyond the re-baselining factor that the version's own text does
    // not claim is a measurement artifact: rejected, and the floor stays, so
    // one artifact cannot make every later version look like a regression.
    if (*geo * t_.rebaseline_factor < best && claimed_speedup(row) < t_.rebaseline_factor)
      return reject(i, "unexplained win (" + text::fixed(best / *geo, 0) +
                           "x better than best-so-far, not claimed by its text)");
    bool no_change = declares_no_change(row);
    if (improve >= t_.milestone_pct && !no_change) {
      best_ = geo;
      best_version_ = version(i);
      return milestone(i, improve >= t_.mega_pct ? Kind::Mega : Kind::Milestone, j.improve_pct);
    }
    if (improve > 0) best_ = geo, best_version_ = version(i);
    final_ok_[i] = true;
    if (no_change && improve >= t_.milestone_pct)
      return reject(i, "declares no change (" + text::fixed(improve, 2) + "%)");
    reject(i, "under " + text::fixed(t_.milestone_pct, 1) + "% (" + text::fixed(improve, 2) + "%)");
  }

  void pick_final() {
    if (r_.milestones.empty() || !best_) return;
    const double limit = *best_ * t_.final_tolerance;
    std::optional<std::size_t> pick;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      if (!final_ok_[i]) continue;
      auto geo = usable_geomean(rows_[i]);
      if (!geo || *geo > limit) continue;
      if (!pick || n_of(rows_[i]) > n_of(rows_[*pick])) pick = i;
    }
    if (!pick) return;
    for (const auto &m : r_.milestones)
      if (m.row == *pick) return;
    r_.judgements[*pick].selection = "final";
    r_.milestones.push_back({*pick, version(*pick), Kind::Final, std::nullopt});
  }
};

} // namespace

Result select(const std::vector<json::Value> &rows, const config::LadderThresholds &t) {
  return Ratchet(rows, t).run();
}

void annotate_in_place(std::vector<json::Value> &rows, const Result &r) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    json::Value &row = rows[i];
    if (!row.is_object()) row = json::Value::object();
    row.as_object()->reserve(row.size() + 6); // one growth, not a doubling
    r.judgements.at(i).write_into(row);
  }
}

std::vector<json::Value> annotate(std::vector<json::Value> rows, const Result &r) {
  annotate_in_place(rows, r);
  return rows;
}

json::Value milestone_row(const std::vector<json::Value> &rows, const Milestone &m) {
  json::Value row = rows.at(m.row).is_object() ? rows.at(m.row) : json::Value::object();
  row.set("kind", std::string(kind_name(m.kind)));
  row.set("improve_pct", m.improve_pct);
  return row;
}

std::vector<std::pair<std::string, double>> running_minimum(const std::vector<json::Value> &rows) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto &row : rows) {
    auto geo = usable_geomean(row);
    if (!geo) continue;
    if (out.empty() || *geo < out.back().second) out.emplace_back(row.string_or("version"), *geo);
  }
  return out;
}

std::string reason_group(std::string_view reason) {
  static const text::Regex parens("\\(.*\\)");
  return std::string(text::strip(parens.replace(reason, "")));
}

std::vector<std::pair<std::string, std::size_t>> group_reasons(const std::vector<Rejection> &rejections) {
  std::vector<std::pair<std::string, std::size_t>> groups;
  for (const auto &r : rejections) {
    std::string g = reason_group(r.reason);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto &p) { return p.first == g; });
    if (it == groups.end())
      groups.emplace_back(g, 1);
    else
      ++it->second;
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  return groups;
}

} // namespace otm::ladder
