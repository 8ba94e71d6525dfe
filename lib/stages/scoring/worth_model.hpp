// The store's worth model (spec scoring.md §1, the store's wiki_score model
// version 1.1), ported exactly so staged scores are comparable with the live
// store's: a type-specific prior, a base-rate-corrected feedback band scaled
// by confidence, a small usage bonus, optional recency decay, and the tier
// rules. The conformance test recomputes all records of the real store.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "json/value.hpp"

namespace otm::scoring {

inline constexpr const char *kModelVersion = "1.1";
inline constexpr double kHalfLifeDays = 90.0;
inline constexpr double kFeedbackBand = 0.35;
inline constexpr double kConfidenceN = 8.0;
inline constexpr double kTierSignal = 0.5;
inline constexpr double kTierConfidence = 0.5;
// The formula string written to worth.rank.formula.
inline constexpr const char *kFormula =
    "clamp(prior + 0.35*signed_feedback*confidence + usage_bonus) * recency_decay(half_life=90d)";

// prior_score(prior, type): `prior` is an object (keys absent = unknown).
double prior_score(const json::Value &prior, std::string_view type);

// corpus_ladder_ratio, else corpus_kept_ratio, else none; inverted for
// anti-strategy.
std::optional<double> reference_rate(const json::Value &prior, std::string_view type);

struct Feedback {
  double signed_signal = 0.0; // in [-1, 1]
  double confidence = 0.0;    // in [0, 1]
};
Feedback feedback(const json::Value &counters, std::optional<double> base_rate);

// The model's inputs taken from a record: worth.track.prior and .counters
// with the degenerate inputs dropped (scoring.md §2 step 2: null values, and
// n_independent_runs <= 1), the type (default strategy) and worth.gain.basis.
struct WorthInputs {
  json::Value prior = json::Value::object();
  json::Value counters = json::Value::object();
  std::string type = "strategy";
  std::string gain_basis;
};
WorthInputs inputs_of(const json::Value &record);

struct Rank {
  double score = 0.0; // rounded to 4 places
  std::string tier;
};

// Score and tier. `now` (seconds since the epoch) enables the recency decay
// against counters.last_used_ts; the pipeline passes none, so decay is 1.
Rank rank(const WorthInputs &in, std::optional<double> now = std::nullopt);
inline Rank rank_record(const json::Value &record) { return rank(inputs_of(record)); }

} // namespace otm::scoring
