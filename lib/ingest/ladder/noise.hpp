// What a version row says about itself, as the ratchet reads it (spec
// ladder.md §2-§3): its text, whether it declares that it changed nothing,
// whether its measurement is noise (re-measurement, infrastructure,
// incorrect output, failed quality gate), and how large a win its own text
// claims. Every pattern here is word-bounded or a curated phrase, so that
// "cache-blocked tiling", "no opportunity" or "infrared" are not noise.
#pragma once

#include <optional>
#include <string>

#include "text/regex.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::ladder {

// text_of(v): the truthy values among subject, body, action_description and
// gate_failure, each as a string, joined with single spaces.
std::string text_of(const json::Value &row);
// The same of a typed row (otm-partition, otm-packet).
std::string text_of(const workspace::VersionRow &row);

// The version reports no change ("flat within noise", "no-op", ...): it may
// lower the floor but cannot be credited with the gain.
bool declares_no_change(const json::Value &row);

// The version changes no kernel code and says the measurement changed ("re-
// baseline under the new harness ... kernel unchanged", "cold-cache
// numbers"): its geomean is the same code measured the new way, the floor
// later versions are compared with.
bool declares_new_measurement(const json::Value &row);
bool declares_new_measurement(const workspace::VersionRow &row);

// The first of the commits naming no version made just before this
// version's (`other_commits_before`) whose subject `changes` matches (the
// configuration's ladder.measurement_change_commits: "harness: flush L2
// between iterations", "bench: move to a different node"): every version
// from here on is measured the new way, so no gain across it compares
// (kits 60 and 61, K14, J19). nullopt when none does or `changes` is null.
std::optional<std::string> measurement_changed_before(const json::Value &row, const text::Regex *changes);
std::optional<std::string> measurement_changed_before(const workspace::VersionRow &row, const text::Regex *changes);

// Noise reasons in the spec's order: "remeasurement", "infrastructure", and,
// when outcome_matters, "incorrect" and "gate-fail". nullopt when none.
std::optional<std::string> noise_reason(const json::Value &row, bool outcome_matters);

// Correctness vocabulary: PASS/pass/PASSED/ok/success are a pass; a null or
// empty status says nothing.
bool correctness_failed(const json::Value &status);
// Quality-gate vocabulary: FAIL, FAILED, TIMEOUT_FAIL, ERROR, TIMEOUT fail.
bool gate_failed(const json::Value &result);

// The largest speed-up factor the version's own text claims: before/after
// latencies of the subject grammar, a negative subject percentage, or an
// "N x faster" / "speed-up of Nx" phrase. 1.0 when it claims none.
double claimed_speedup(const json::Value &row);

// geomean_us when it is a finite positive number (not a bool, string or
// container); nullopt otherwise.
std::optional<double> usable_geomean(const json::Value &row);

} // namespace otm::ladder
