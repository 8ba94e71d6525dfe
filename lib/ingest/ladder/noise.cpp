#include "ladder/noise.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "json/write.hpp"

namespace otm::ladder {

using text::Regex;

namespace {

std::string as_text(const json::Value &v) {
  if (v.is_array() || v.is_object()) return json::to_line(v);
  return v.python_str();
}

// "No change" phrases, each word-bounded: "no op" must not match
// "no opportunity", "no change" must not match "no changelog". A step that
// says its harness changed how it measures ("re-baselined", "harness
// switched to CUDA-graph replay timing") changed the measurement, not the
// kernel: it may lower the floor but claims nothing (issue 25; the
// reference's 5x guard misses a 30% switch).
const Regex &no_change_pattern() {
  static const Regex re("(?i)\\bno[_ ]changes?\\b|\\bno[_ -]?op\\b|\\bfalsified\\b|\\bflat[- ]within[- ]noise\\b"
                        "|\\bwithin noise\\b|\\bno actionable lever\\b|\\bno improvement\\b"
                        "|\\bre-?baselined\\b|\\bharness (?:switched|changed)\\b"
                        "|\\bno (?:kernel|code) changes?\\b|\\bkernel (?:is )?unchanged\\b");
  return re;
}

// A measurement that changed: a new harness, a re-baseline, cold-cache timing.
const Regex &new_measurement_pattern() {
  static const Regex re("(?i)\\bharness\\b|\\bre-?baselin\\w*|\\bnot comparable\\b|\\bcold[- ]cache\\b"
                        "|\\bflush\\w*\\s+(?:the\\s+)?L2\\b");
  return re;
}

// Infrastructure trouble. Letters and digits bound each term ("_" and "-"
// separate, so NOT_RUN and infra-outage match, infrared does not). Bare
// "blocked" and "unavailable" describe kernels too (cache-blocked tiling,
// "TMA unavailable on sm80"), so they count only in curated phrases.
const Regex &infrastructure_pattern() {
  static const Regex re(
      "(?i)(?<![\\p{L}\\p{N}])(?:infra|infrastructure|sandbox|sandboxed|outage|not[_ ]run|no[_ ]gpu|machine[_ ]down"
      "|(?:gpu|gpus|machine|node|host|runner|cluster|device|hardware)[_ ](?:was[_ ]|is[_ ]|were[_ ])?unavailable"
      "|(?:run|job|gpu|node|machine|queue|benchmark)[_ ](?:was[_ ])?blocked"
      "|blocked[_ ](?:by|on)[_ ](?:the[_ ])?(?:infra\\w*|sandbox|outage|cluster|queue|scheduler|quota|machine|node|gpu)"
      ")(?![\\p{L}\\p{N}])");
  return re;
}

const Regex &remeasurement_pattern() {
  static const Regex re("(?i)(_rerun\\d*|_baseline|_base)$");
  return re;
}

const Regex &pass_pattern() {
  static const Regex re("(?i)^\\s*(?:pass|passed|ok|success|succeeded|correct)\\s*$");
  return re;
}

const Regex &gate_fail_pattern() {
  static const Regex re("(?i)(?<![\\p{L}])(?:fail|failed|failure|fails|error|timeout|timed[_ ]out)(?![\\p{L}])");
  return re;
}

const Regex &times_faster_pattern() {
  static const Regex re("(?i)(\\d+(?:\\.\\d+)?)\\s*(?:x|\\x{00d7})\\s+(?:faster|speed-?up|quicker|better|win)\\b"
                        "|speed-?up\\s+of\\s+(\\d+(?:\\.\\d+)?)\\s*(?:x|\\x{00d7})");
  return re;
}

std::optional<double> number_of(const json::Value &v) {
  if (!v.is_number()) return std::nullopt;
  auto n = v.as_number();
  if (!n || !std::isfinite(*n)) return std::nullopt;
  return n;
}

} // namespace

std::string text_of(const json::Value &row) {
  std::string out;
  for (const char *key : {"subject", "body", "action_description", "gate_failure"}) {
    const json::Value &v = row.get(key);
    if (!v.truthy()) continue;
    if (!out.empty()) out += ' ';
    out += as_text(v);
  }
  return out;
}

std::string text_of(const workspace::VersionRow &row) {
  // Read back through the untyped rule, so the two cannot drift apart.
  json::Value read = json::Value::object();
  read.set("subject", row.subject);
  read.set("body", row.body);
  read.set("action_description", row.action_description);
  read.set("gate_failure", row.gate_failure);
  return text_of(read);
}

bool declares_no_change(const json::Value &row) { return no_change_pattern().contains(text_of(row)); }

bool declares_new_measurement(const json::Value &row) {
  const std::string text = text_of(row);
  return no_change_pattern().contains(text) && new_measurement_pattern().contains(text);
}

bool declares_new_measurement(const workspace::VersionRow &row) {
  const std::string text = text_of(row);
  return no_change_pattern().contains(text) && new_measurement_pattern().contains(text);
}

std::optional<std::string> measurement_changed_before(const workspace::VersionRow &row, const Regex *changes) {
  if (!changes) return std::nullopt;
  for (const auto &subject : row.other_commits_before)
    if (changes->contains(subject)) return subject;
  return std::nullopt;
}

std::optional<std::string> measurement_changed_before(const json::Value &row, const Regex *changes) {
  workspace::VersionRow typed;
  if (const auto *list = row.get("other_commits_before").as_array())
    for (const auto &v : *list)
      if (const auto *s = v.as_string()) typed.other_commits_before.push_back(*s);
  return measurement_changed_before(typed, changes);
}

bool correctness_failed(const json::Value &status) {
  if (status.is_null()) return false;
  if (const bool *b = status.as_bool()) return !*b;
  std::string s = as_text(status);
  if (s.empty()) return false;
  return !pass_pattern().contains(s);
}

bool gate_failed(const json::Value &result) {
  const std::string *s = result.as_string();
  return s && gate_fail_pattern().contains(*s);
}

std::optional<std::string> noise_reason(const json::Value &row, bool outcome_matters) {
  if (remeasurement_pattern().contains(row.string_or("version"))) return std::string("remeasurement");
  if (infrastructure_pattern().contains(text_of(row))) return std::string("infrastructure");
  if (!outcome_matters) return std::nullopt;
  if (correctness_failed(row.get("correctness_status"))) return std::string("incorrect");
  if (gate_failed(row.get("gate_result"))) return std::string("gate-fail");
  return std::nullopt;
}

double claimed_speedup(const json::Value &row) {
  double best = 1.0;
  auto before = number_of(row.get("subject_before_us"));
  auto after = number_of(row.get("subject_after_us"));
  if (before && after && *after > 0 && *before > *after) best = std::max(best, *before / *after);
  if (auto pct = number_of(row.get("subject_pct")); pct && *pct < 0 && *pct > -100)
    best = std::max(best, 1.0 / (1.0 + *pct / 100.0));
  const std::string text = text_of(row); // the matches point into it
  for (const auto &m : times_faster_pattern().find_all(text)) {
    std::string_view g = m.has(1) ? m[1] : m[2];
    best = std::max(best, std::strtod(std::string(g).c_str(), nullptr));
  }
  return best;
}

std::optional<double> usable_geomean(const json::Value &row) {
  auto g = number_of(row.get("geomean_us"));
  if (!g || *g <= 0) return std::nullopt;
  return g;
}

} // namespace otm::ladder
