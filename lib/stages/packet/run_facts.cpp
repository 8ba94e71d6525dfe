#include "packet/run_facts.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "error/error.hpp"
#include "ladder/noise.hpp"
#include "levers/term_vocabulary.hpp"
#include "text/utf8.hpp"

namespace otm::packet {

NoiseRule NoiseRule::from_json(const json::Value &section, const std::string &source) {
  NoiseRule r;
  if (section.is_null()) return r;
  std::string where = source + ": noise";
  if (!section.is_object()) throw Error(ErrorKind::Usage, where + " must be an object");
  if (const auto &q = section.get("spread_quantile"); !q.is_null()) {
    if (!q.is_number() || *q.as_number() <= 0 || *q.as_number() > 1)
      throw Error(ErrorKind::Usage, where + ".spread_quantile must be a number in (0, 1]");
    r.spread_quantile = *q.as_number();
  }
  if (const auto &h = section.get("harness_change_pct"); !h.is_null()) {
    if (!h.is_number() || *h.as_number() <= 0)
      throw Error(ErrorKind::Usage, where + ".harness_change_pct must be a positive number");
    r.harness_change_pct = *h.as_number();
  }
  if (const auto &g = section.get("gain_min_shape_share"); !g.is_null()) {
    if (!g.is_number() || *g.as_number() < 0 || *g.as_number() > 1)
      throw Error(ErrorKind::Usage, where + ".gain_min_shape_share must be a number in [0, 1]");
    r.gain_min_shape_share = *g.as_number();
  }
  if (const auto &g = section.get("span_own_gain_min_share"); !g.is_null()) {
    if (!g.is_number() || *g.as_number() < 0 || *g.as_number() > 1)
      throw Error(ErrorKind::Usage, where + ".span_own_gain_min_share must be a number in [0, 1]");
    r.span_own_gain_min_share = *g.as_number();
  }
  if (const auto &g = section.get("close_gain_band_multiple"); !g.is_null()) {
    if (!g.is_number() || *g.as_number() < 0)
      throw Error(ErrorKind::Usage, where + ".close_gain_band_multiple must be a number of at least 0");
    r.close_gain_band_multiple = *g.as_number();
  }
  if (const auto &g = section.get("small_gain_without_band_pct"); !g.is_null()) {
    if (!g.is_number() || *g.as_number() < 0)
      throw Error(ErrorKind::Usage, where + ".small_gain_without_band_pct must be a number of at least 0");
    r.small_gain_without_band_pct = *g.as_number();
  }
  if (const auto &n = section.get("no_effect_max_pct"); !n.is_null()) {
    if (!n.is_number() || *n.as_number() < 0)
      throw Error(ErrorKind::Usage, where + ".no_effect_max_pct must be a number of at least 0");
    r.no_effect_max_pct = *n.as_number();
  }
  if (const auto &list = section.get("re_measurement_suffixes"); !list.is_null())
    r.re_measurement_suffix =
        levers::patterns_regex(list, true, where + ".re_measurement_suffixes", levers::PatternsMatch::WholeText);
  return r;
}

namespace {

// The run's band over the measurements of unchanged code: the NoiseRule's
// quantile (nearest rank: at 0.9 of ten spreads, the ninth) of the spreads,
// in percent of the faster, of each range measured more than once; a spread
// above harness_change_pct is a harness change, not noise.
template <class Ranges> std::optional<double> band_of(const Ranges &ranges, const NoiseRule &noise) {
  std::vector<double> spreads;
  for (const auto &[_, range] : ranges) {
    double pct = (range.second / range.first - 1.0) * 100.0;
    if (pct > 0 && pct <= noise.harness_change_pct) spreads.push_back(pct);
  }
  if (spreads.empty()) return std::nullopt;
  std::sort(spreads.begin(), spreads.end());
  auto rank = static_cast<std::size_t>(std::ceil(noise.spread_quantile * static_cast<double>(spreads.size())));
  return spreads[std::clamp<std::size_t>(rank, 1, spreads.size()) - 1];
}

// A step the run kept: it has a commit, not reverted. The commit is read,
// not has_commit, as the rows were always read here (a hand-written row
// states its sha alone).
bool kept(const workspace::VersionRow &r) { return !r.sha.empty() && !r.reverted; }

} // namespace

RunFacts::RunFacts(const std::vector<json::Value> &version_rows, const BlobOf &blob_of, const NoiseRule &noise)
    : RunFacts(workspace::read_version_rows(version_rows, "version rows"), blob_of, noise) {}

RunFacts::RunFacts(std::vector<workspace::VersionRow> version_rows, const BlobOf &blob_of, const NoiseRule &noise)
    : rows_(std::move(version_rows)), measurement_change_commits_(noise.measurement_change_commits) {
  std::stable_sort(rows_.begin(), rows_.end(),
                   [](const workspace::VersionRow &a, const workspace::VersionRow &b) { return a.n < b.n; });
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    position_.try_emplace(rows_[i].version, i);
    if (const auto &s = rows_[i].expected_impact; s && !text::strip(*s).empty()) ++impacts_[text::folded(*s)];
  }
  stock_ = StockTexts(rows_);
  if (!blob_of) return;
  // Fastest and slowest geomean per kernel blob, and per blob and shape.
  using Range = std::pair<double, double>;
  auto widen = [](auto &map, const auto &key, double x) {
    auto [it, fresh] = map.try_emplace(key, x, x);
    if (!fresh) it->second = {std::min(it->second.first, x), std::max(it->second.second, x)};
  };
  std::unordered_map<std::string, Range> by_blob;
  std::map<std::pair<std::string, std::string>, Range> by_blob_shape;
  // Kept steps only: a reverted step's row measures its attempt, and its
  // commit may hold only the step's memory, so the code it measured is not
  // the code its commit holds (a generated trace's memory-only revert of a
  // 4 % faster fused argmax widened the band of the code it restored to
  // 6.2 %, and a clean 7.3 % gain read as near the noise).
  blobs_.resize(rows_.size());
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const auto &r = rows_[i];
    auto g = r.geomean();
    if (!kept(r) || !g || *g <= 0) continue;
    const auto &blob = blobs_[i] = blob_of(r.sha);
    if (!blob) continue;
    widen(by_blob, *blob, *g);
    if (const auto *shapes = r.by_shape.as_object())
      for (const auto &[shape, lat] : *shapes)
        if (auto x = lat.as_number(); x && *x > 0) widen(by_blob_shape, std::make_pair(*blob, shape), *x);
  }
  spread_ = band_of(by_blob, noise);
  shape_spread_ = band_of(by_blob_shape, noise);
}

std::optional<double> RunFacts::geomean_of(const std::string &version) const {
  auto it = position_.find(version);
  if (it == position_.end()) return std::nullopt;
  return rows_[it->second].geomean();
}

bool RunFacts::sets_a_new_best(const std::string &version) const {
  auto it = position_.find(version);
  if (it == position_.end() || !kept(rows_[it->second])) return false;
  const auto mine = rows_[it->second].geomean();
  if (!mine) return false;
  for (std::size_t i = 0; i < it->second; ++i)
    if (const auto g = rows_[i].geomean(); kept(rows_[i]) && g && *g <= *mine) return false;
  return true;
}

std::vector<const workspace::VersionRow *> RunFacts::kept_with_the_same_code(const std::string &version) const {
  std::vector<const workspace::VersionRow *> out;
  auto it = position_.find(version);
  if (it == position_.end() || it->second >= blobs_.size() || !blobs_[it->second]) return out;
  for (std::size_t i = 0; i < rows_.size(); ++i)
    if (blobs_[i] == blobs_[it->second]) out.push_back(&rows_[i]);
  return out;
}

std::optional<double> RunFacts::shape_latency_of(const std::string &version, const std::string &shape) const {
  auto it = position_.find(version);
  if (it == position_.end()) return std::nullopt;
  return rows_[it->second].by_shape.get(shape).as_number();
}

bool RunFacts::passed_correctness(const std::string &version) const {
  auto it = position_.find(version);
  if (it == position_.end()) return false;
  const auto &row = rows_[it->second];
  const auto &status = row.correctness_status;
  if (!status || text::strip(*status).empty() || ladder::correctness_failed(json::Value(*status))) return false;
  const auto &gate = row.gate_failure;
  return !gate || text::strip(*gate).empty();
}

std::vector<const workspace::VersionRow *> RunFacts::kept_between(const std::string &from,
                                                                  const std::string &to) const {
  std::vector<const workspace::VersionRow *> out;
  auto a = position_.find(from), b = position_.find(to);
  if (a == position_.end() || b == position_.end()) return out;
  for (std::size_t i = a->second + 1; i < b->second; ++i)
    if (kept(rows_[i])) out.push_back(&rows_[i]);
  return out;
}

bool RunFacts::measurement_changed_after(const std::string &from, const std::string &to) const {
  auto a = position_.find(from), b = position_.find(to);
  if (a == position_.end() || b == position_.end()) return false;
  for (std::size_t i = a->second + 1; i <= b->second; ++i)
    if ((kept(rows_[i]) && ladder::declares_new_measurement(rows_[i])) ||
        ladder::measurement_changed_before(rows_[i], measurement_change_commits_.get()))
      return true;
  return false;
}

std::vector<const workspace::VersionRow *> RunFacts::kept_through(const std::string &version) const {
  std::vector<const workspace::VersionRow *> out;
  auto b = position_.find(version);
  if (b == position_.end()) return out;
  for (std::size_t i = 0; i <= b->second; ++i)
    if (kept(rows_[i])) out.push_back(&rows_[i]);
  return out;
}

std::vector<const workspace::VersionRow *> RunFacts::kept_after(const std::string &version) const {
  std::vector<const workspace::VersionRow *> out;
  auto a = position_.find(version);
  if (a == position_.end()) return out;
  for (std::size_t i = a->second + 1; i < rows_.size(); ++i)
    if (kept(rows_[i])) out.push_back(&rows_[i]);
  return out;
}

const workspace::VersionRow *RunFacts::row_of(const std::string &version) const {
  auto it = position_.find(version);
  return it == position_.end() ? nullptr : &rows_[it->second];
}

std::size_t RunFacts::position_of(const std::string &version) const {
  auto it = position_.find(version);
  return it == position_.end() ? rows_.size() : it->second;
}

std::vector<const workspace::VersionRow *> RunFacts::reverted_before(const std::string &version) const {
  std::vector<const workspace::VersionRow *> out;
  auto it = position_.find(version);
  if (it == position_.end()) return out;
  for (std::size_t i = 0; i < it->second; ++i)
    if (!rows_[i].sha.empty() && rows_[i].reverted) out.push_back(&rows_[i]);
  return out;
}

std::string RunFacts::code_made_on(const std::string &version) const {
  auto it = position_.find(version);
  if (it == position_.end()) return {};
  for (std::size_t i = it->second; i-- > 0;)
    if (kept(rows_[i])) return rows_[i].sha;
  return {};
}

std::size_t RunFacts::steps_stating(const std::optional<std::string> &text) const {
  if (!text) return 0;
  auto it = impacts_.find(text::folded(*text));
  return it == impacts_.end() ? 0 : it->second;
}

} // namespace otm::packet
