#include "scoring/worth_model.hpp"

#include <algorithm>
#include <cmath>

#include "store/record_view.hpp"
#include "text/pyformat.hpp"

namespace otm::scoring {

namespace {

double clamp(double x, double lo = 0.0, double hi = 1.0) { return std::max(lo, std::min(hi, x)); }
double stretch(double k) { return clamp((k - 0.10) / 0.70); }

// Python's `d.get(key)` as a number; nullopt for absent, null or non-numeric.
std::optional<double> num(const json::Value &obj, std::string_view key) {
  const auto *v = obj.find(key);
  if (!v) return std::nullopt;
  if (const bool *b = v->as_bool()) return *b ? 1.0 : 0.0;
  return v->as_number();
}

// Python's `d.get(key) or fallback`.
double num_or(const json::Value &obj, std::string_view key, double fallback) {
  auto v = num(obj, key);
  return v && *v != 0.0 ? *v : fallback;
}

} // namespace

double prior_score(const json::Value &prior, std::string_view type) {
  auto kept = num(prior, "corpus_kept_ratio");
  if (type == "anti-strategy") {
    double s = 0.45;
    double r = num_or(prior, "rediscovered", 1.0);
    if (r > 1) s += 0.30 * clamp(std::log(r) / std::log(10.0));
    double n = num_or(prior, "n_operators", 1.0);
    if (n > 1) s += 0.20 * clamp(std::log(n) / std::log(5.0));
    if (kept) s += 0.25 * clamp(1 - stretch(*kept));
    return clamp(s);
  }
  if (type == "technique-card") {
    if (!kept) return 0.55;
    return clamp(0.55 + 0.30 * clamp(std::fabs(*kept - 0.5) / 0.35));
  }
  if (type == "symptom-card") {
    double seen = num_or(prior, "n_operators", 0.0);
    return clamp(0.55 + 0.25 * clamp(std::log1p(seen) / std::log(11.0)));
  }
  if (type == "reference-kernel") {
    double s = num_or(prior, "best_speedup_x", 0.0);
    double bonus = s > 1 ? 0.15 * clamp(std::log(s) / std::log(300.0)) : 0.0;
    return clamp(0.45 + bonus);
  }
  if (type == "doc") return 0.40;
  double sum = 0.0, weights = 0.0;
  if (auto g = num(prior, "step_gain_pct")) {
    sum += clamp(std::log1p(std::max(0.0, *g)) / std::log1p(100.0)) * 1.5;
    weights += 1.5;
  }
  if (kept) {
    sum += stretch(*kept) * 1.0;
    weights += 1.0;
  }
  if (double runs = num_or(prior, "n_independent_runs", 0.0); runs != 0.0) {
    sum += clamp(std::log(std::max(1.0, runs)) / std::log(4.0)) * 0.5;
    weights += 0.5;
  }
  if (weights == 0.0) return 0.30;
  return clamp(sum / weights);
}

std::optional<double> reference_rate(const json::Value &prior, std::string_view type) {
  auto r = num(prior, "corpus_ladder_ratio");
  if (!r) r = num(prior, "corpus_kept_ratio");
  if (!r) return std::nullopt;
  return type == "anti-strategy" ? 1 - *r : *r;
}

Feedback feedback(const json::Value &counters, std::optional<double> base_rate) {
  double good = num_or(counters, "verified_effective", 0.0);
  double bad = num_or(counters, "verified_ineffective", 0.0);
  double n = good + bad;
  if (n <= 0) return {};
  double posterior = (good + 1) / (n + 2);
  double ref = base_rate ? clamp(*base_rate, 0.05, 0.95) : 0.5;
  double room = posterior >= ref ? 1 - ref : ref;
  return {clamp((posterior - ref) / std::max(room, 1e-6), -1.0, 1.0), clamp(n / kConfidenceN)};
}

WorthInputs inputs_of(const json::Value &record) {
  WorthInputs in;
  const auto &worth = record.get("worth");
  const auto &track = worth.get("track");
  auto known = [](const json::Value &d, json::Value &out) {
    const auto *obj = d.as_object();
    if (!obj) return;
    for (const auto &[k, v] : *obj) {
      if (v.is_null()) continue;
      if (k == "n_independent_runs") {
        auto n = v.as_number();
        if (n && *n <= 1) continue;
      }
      out.set(k, v);
    }
  };
  known(track.get("prior"), in.prior);
  known(track.get("counters"), in.counters);
  if (const auto *t = record.get("type").as_string(); t && !t->empty()) in.type = *t;
  in.gain_basis = store::RecordView::shown(record).gain_basis.value_or("");
  return in;
}

Rank rank(const WorthInputs &in, std::optional<double> now) {
  double prior = prior_score(in.prior, in.type);
  Feedback fb = feedback(in.counters, reference_rate(in.prior, in.type));
  double adjust = kFeedbackBand * fb.signed_signal * fb.confidence;
  double recency = 1.0;
  auto last = num(in.counters, "last_used_ts");
  if (now && last && *now > *last) {
    double age_days = (*now - *last) / 86400.0;
    recency = 0.5 + 0.5 * std::pow(0.5, age_days / kHalfLifeDays);
  }
  double used = std::max(num_or(in.counters, "served_count", 0.0), num_or(in.counters, "query_count", 0.0));
  double usage = 0.05 * clamp(std::log1p(used) / std::log(50.0));
  Rank out;
  out.score = text::round_to(clamp((prior + adjust + usage) * recency), 4);
  bool decided = fb.confidence >= kTierConfidence;
  if (in.type == "anti-strategy")
    out.tier = "cautionary";
  else if (decided && fb.signed_signal <= -kTierSignal)
    out.tier = "cautionary";
  else if (in.gain_basis != "measured")
    out.tier = "provisional";
  else if (decided && fb.signed_signal >= kTierSignal)
    out.tier = "proven";
  else
    out.tier = "promising";
  return out;
}

} // namespace otm::scoring
