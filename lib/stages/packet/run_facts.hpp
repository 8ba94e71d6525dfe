// What a packet says about the run around its own step, read once per
// packet run from the version rows (issue 25):
//   * the kept steps between a strategy's best-so-far and its own step,
//     whose code the strategy's diff also holds (a span credited to its
//     last step is the wrong record);
//   * how many steps of the run state each expected impact, so a sentence
//     the producer's template repeats on every step is known for one;
//   * how far the run's own re-measurements of unchanged code spread: per
//     kernel blob the run kept more than once, the spread of its geomeans; the
//     run's band is the NoiseRule's quantile of those spreads (a spread
//     above its harness_change_pct is a harness change, not noise), so a
//     failure inside it is known for noise;
//   * the same per benchmarked shape: the quantile of the spreads of each
//     shape's latency over the measurements of one kernel blob, so a shape
//     that moved inside it moved for no reason of its own.
//
//   RunFacts facts(workspace::read_version_rows(rows, "work/versions.jsonl"));
//   facts.kept_between("v3", "v6")          // rows of v4, v5: committed, not reverted, in order
//   facts.steps_stating(row.expected_impact)   // 106 of ...
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "packet/stock_texts.hpp"
#include "text/regex.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::packet {

// The `noise` configuration section: how the run's noise band is read.
struct NoiseRule {
  double spread_quantile = 0.9;     // which re-measurement spread is the run's band
  double harness_change_pct = 10.0; // a larger spread of one code is a harness change
  // otm-draft: a geomean gain shown beyond the per-shape band on fewer than
  // this share of the shapes, the others moving together inside the run's
  // band, is those shapes' and not the change's across the workload.
  double gain_min_shape_share = 0.5;
  // otm-draft: an account that says its lever gained nothing is borne out
  // when the attempt measured within this many percent of the code it was
  // tried on, either way (the run's band, when it is known, instead).
  double no_effect_max_pct = 1.0;
  // otm-draft: a strategy whose diff spans earlier kept steps is refused
  // when the run's own subject measured less than this share of the
  // span's gain on the step itself.
  double span_own_gain_min_share = 0.5;
  // otm-draft: a strategy's gain under this multiple of the run's band is
  // said to be close to the noise (kit 29, R02: 1.82 % against a 1.48 %
  // band); 0 says nothing.
  double close_gain_band_multiple = 1.25;
  // otm-draft: when the run never re-measured code it kept (no band), a
  // gain under this many percent is said to be unreadable against its
  // noise (kit 36, Y12: 1.71 % credited with nothing to read it against);
  // 0 says nothing.
  double small_gain_without_band_pct = 2.0;
  // otm-packet: the suffixes of a step-record variant that measured its
  // version's code again ("v65_retry.json"), whole and in any case; a
  // profiler's run of the version ("v5_ncu.json") is slower by design and
  // no re-measurement. Null: no variant is.
  std::shared_ptr<const text::Regex> re_measurement_suffix;
  // The ladder's reading of a commit between versions that changed how
  // the run measures (config::LadderThresholds, the `ladder` section),
  // so the packet and the ladder read one pattern. Null: none does.
  std::shared_ptr<const text::Regex> measurement_change_commits;
  static NoiseRule from_json(const json::Value &section, const std::string &source);
};

class RunFacts {
public:
  // The kernel file's blob at a commit (nullopt when it has none).
  using BlobOf = std::function<std::optional<std::string>(const std::string &sha)>;
  RunFacts() = default;
  explicit RunFacts(std::vector<workspace::VersionRow> version_rows, const BlobOf &blob_of = {},
                    const NoiseRule &noise = NoiseRule());
  // Rows not yet typed: each read with VersionRow::from_json, the first that
  // is no version row thrown (its Error).
  explicit RunFacts(const std::vector<json::Value> &version_rows, const BlobOf &blob_of = {},
                    const NoiseRule &noise = NoiseRule());
  // The rows strictly after version `from` and before `to` (by their `n`)
  // that have a commit and were not reverted, oldest first; empty when
  // either version is unknown.
  std::vector<const workspace::VersionRow *> kept_between(const std::string &from, const std::string &to) const;
  // Whether a kept row after `from`, up to and including `to`, declares
  // that the run changed how it measures (ladder::declares_new_measurement:
  // a harness re-baseline), or any row there follows a commit that says so
  // (ladder::measurement_changed_before): the geomeans of the two do not compare. False
  // when either version is unknown or `to` is not after `from`.
  bool measurement_changed_after(const std::string &from, const std::string &to) const;
  // The rows up to and including `version` that have a commit and were
  // not reverted, oldest first; empty when the version is unknown.
  std::vector<const workspace::VersionRow *> kept_through(const std::string &version) const;
  // The rows after `version` that have a commit and were not reverted,
  // oldest first; empty when the version is unknown.
  std::vector<const workspace::VersionRow *> kept_after(const std::string &version) const;
  // The commit of the last row before `version` (by `n`) that has a
  // commit and was not reverted: the code a kept step was made on; empty
  // when there is none or the version is unknown.
  std::string code_made_on(const std::string &version) const;
  // A version's row, nullptr when unknown.
  const workspace::VersionRow *row_of(const std::string &version) const;
  // A version's place in the run (by `n`); past every known one when unknown.
  std::size_t position_of(const std::string &version) const;
  // The rows before `version` (by `n`) that have a commit and were
  // reverted, oldest first; empty when the version is unknown.
  std::vector<const workspace::VersionRow *> reverted_before(const std::string &version) const;
  // How many steps state `text` (text::folded alike) as their
  // expected impact; 0 for none.
  std::size_t steps_stating(const std::optional<std::string> &text) const;
  // The run's stock sentences (stock_texts.hpp).
  const StockTexts &stock() const { return stock_; }
  // The run's noise band: the NoiseRule's quantile of the spreads, in
  // percent of the faster, of the kept steps' measurements of each
  // byte-identical kernel; nullopt when the run never re-measured unchanged code (or no
  // blob reader was given).
  std::optional<double> same_code_spread_pct() const { return spread_; }
  // The same band per shape: the quantile of the spreads of every shape's
  // latency over the measurements of each byte-identical kernel.
  std::optional<double> same_code_shape_spread_pct() const { return shape_spread_; }
  // A version's latency on one shape, when its row has one.
  std::optional<double> shape_latency_of(const std::string &version, const std::string &shape) const;
  // A version's geomean, when its row has one.
  std::optional<double> geomean_of(const std::string &version) const;
  // Whether a kept version measured faster than every kept row before it:
  // a new best-so-far by its own geomean (false for an unknown version or
  // one without a geomean).
  bool sets_a_new_best(const std::string &version) const;
  // The kept steps whose kernel is byte-identical to `version`'s, in run
  // order, `version` among them when kept: the run's re-measurements of
  // one code (round 28, W13: a final kernel quoted at its fastest of four).
  // Empty without a blob reader or for an unknown version.
  std::vector<const workspace::VersionRow *> kept_with_the_same_code(const std::string &version) const;
  // Whether a version's correctness check passed: a status that is not a
  // failure and no quality-gate failure (false for an unknown version or
  // one without a status).
  bool passed_correctness(const std::string &version) const;

private:
  std::vector<workspace::VersionRow> rows_;               // by n
  std::unordered_map<std::string, std::size_t> position_; // version -> index in rows_
  std::unordered_map<std::string, std::size_t> impacts_;  // normalised expected impact -> steps
  StockTexts stock_;
  std::vector<std::optional<std::string>> blobs_; // per row of rows_: its kernel's blob, when read
  std::optional<double> spread_, shape_spread_;
  std::shared_ptr<const text::Regex> measurement_change_commits_;
};

} // namespace otm::packet
