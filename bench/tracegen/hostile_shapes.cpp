#include "tracegen/hostile_shapes.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "tracegen/code_change.hpp"
#include "tracegen/story_numbers.hpp"
#include "tracegen/teller.hpp"

namespace otm::tracegen {

using json::Value;

namespace {

const std::vector<std::pair<HostileShape, const char *>> &shape_names() {
  static const std::vector<std::pair<HostileShape, const char *>> names = {
      {HostileShape::InvisibleCode, "invisible-code"},
      {HostileShape::RenamedLevers, "renamed-levers"},
      {HostileShape::TemplateImpact, "template-impact"},
      {HostileShape::RepeatedPitfalls, "repeated-pitfalls"},
      {HostileShape::MilestoneSpan, "milestone-span"},
      {HostileShape::ContradictedPitfalls, "contradicted-pitfalls"},
      {HostileShape::MisleadingReverts, "misleading-reverts"},
      {HostileShape::QuotedVersions, "quoted-versions"},
  };
  return names;
}

// The one expected_impact of template-impact, in every step record.
const char *kTemplateImpact = "Lower latency from better memory throughput on the long rows.";

std::string capitalised(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

// `from` with the one lever of `m` set as m.after sets it (a retry, or the
// win a failed lever later becomes, on whatever code is best by then).
KernelState with_lever(KernelState from, const Move &m) {
  const KernelState &a = m.after;
  if (m.key == "block") from.block = a.block;
  if (m.key == "warps") from.warps = a.warps;
  if (m.key == "stages") from.stages = a.stages;
  if (m.key == "vec") {
    from.vec = a.vec;
    if (from.load_cache == "ldg" && a.vec > 1) from.load_cache = ""; // __ldg is a scalar load
  }
  if (m.key == "cache") from.load_cache = a.load_cache;
  if (m.key == "evict") from.evict_first = a.evict_first;
  if (m.key == "store") from.streaming_store = a.streaming_store;
  if (m.key == "rows_per_prog") from.rows_per_prog = a.rows_per_prog, from.tail_guard = a.tail_guard;
  if (m.key == "reciprocal") from.reciprocal = a.reciprocal;
  return from;
}

Value pitfall(const std::string &what, const std::string &explanation, const std::string &fix) {
  Value e = Value::object();
  e.set("pitfall", what);
  e.set("explanation", explanation);
  e.set("fix", fix);
  return e;
}

} // namespace

const char *hostile_shape_name(HostileShape s) {
  for (const auto &[shape, name] : shape_names())
    if (shape == s) return name;
  return "invisible-code";
}

const std::vector<HostileShape> &all_hostile_shapes() {
  static const std::vector<HostileShape> all = [] {
    std::vector<HostileShape> v;
    for (const auto &[shape, _] : shape_names()) v.push_back(shape);
    return v;
  }();
  return all;
}

std::vector<HostileShape> parse_hostile_shapes(const std::string &list) {
  if (list == "all") return all_hostile_shapes();
  std::vector<HostileShape> out;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    auto comma = list.find(',', pos);
    std::string name = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    auto it = std::find_if(shape_names().begin(), shape_names().end(), [&](const auto &p) { return name == p.second; });
    if (it == shape_names().end()) {
      std::string known;
      for (const auto &[_, n] : shape_names()) known += (known.empty() ? "" : ", ") + std::string(n);
      throw std::invalid_argument("unknown hostile shape '" + name + "' (all, or a comma-separated list of " + known +
                                  ")");
    }
    if (std::find(out.begin(), out.end(), it->first) == out.end()) out.push_back(it->first);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  // Enum order: the same shapes make the same trace whatever order they were named in.
  std::sort(out.begin(), out.end());
  return out;
}

// ---- the teller's hostile steps ----

bool Teller::on(HostileShape s) const { return std::find(o_.hostile.begin(), o_.hostile.end(), s) != o_.hostile.end(); }

void Teller::mark(HostileShape s) { truth_.hostile.push_back(hostile_shape_name(s)); }

double Teller::slower(unsigned lo_tenths, unsigned hi_tenths) {
  return -double(hostile_rng_.between(lo_tenths, hi_tenths)) / 10.0;
}

std::vector<std::string> Teller::quotes_in(const KernelState &s) const {
  std::vector<std::string> out;
  for (const auto *text : {&s.note_comment, &s.doc_quote}) {
    const std::string &t = *text;
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      bool start = i == 0 || t[i - 1] == ' ' || t[i - 1] == '(';
      if (!start || t[i] != 'v' || !std::isdigit(static_cast<unsigned char>(t[i + 1]))) continue;
      std::size_t j = i + 1;
      while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
      out.push_back(t.substr(i, j - i));
    }
  }
  return out;
}

void Teller::hostile_record(Record &r) {
  if (on(HostileShape::TemplateImpact)) {
    if (!r.expected.empty() && hostile_rng_.chance(15)) {
      truth_.expected_impact = "specific";
    } else {
      r.expected = kTemplateImpact;
      truth_.expected_impact = "template";
      mark(HostileShape::TemplateImpact);
    }
  }
  if (!on(HostileShape::RepeatedPitfalls)) return;
  std::size_t own = r.pitfalls.size();
  // A running list, as some producers keep: the latest earlier pitfalls again.
  if (hostile_rng_.chance(35)) {
    std::size_t added = 0;
    for (auto it = recorded_pitfalls_.rbegin(); it != recorded_pitfalls_.rend() && added < 2; ++it) {
      bool dup = false;
      for (std::size_t i = 0; i < r.pitfalls.size(); ++i) dup = dup || r.pitfalls[i] == it->second;
      if (dup || it->first == v()) continue;
      r.pitfalls.push_back(it->second);
      truth_.repeats.push_back(it->first);
      ++added;
    }
    if (added) mark(HostileShape::RepeatedPitfalls);
  }
  for (std::size_t i = 0; i < own; ++i) recorded_pitfalls_.push_back({v(), r.pitfalls[i]});
}

bool Teller::hostile_step() {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->at > n_) continue;
    auto tell = std::move(it->tell);
    pending_.erase(it);
    if (tell()) return true;
    break;
  }
  if (n_ < 3 || !hostile_rng_.chance(o_.hostile_rate)) return false;
  switch (episodic_[episodes_++ % episodic_.size()]) {
  case HostileShape::InvisibleCode: return invisible_code();
  case HostileShape::RenamedLevers: return renamed_lever();
  case HostileShape::RepeatedPitfalls: return retried_deadend();
  case HostileShape::MilestoneSpan: return milestone_span();
  case HostileShape::ContradictedPitfalls: return contradicted_pitfall();
  case HostileShape::MisleadingReverts: return misleading_revert();
  case HostileShape::QuotedVersions: return quoted_version();
  case HostileShape::TemplateImpact: break;
  }
  return false;
}

void Teller::keep(const std::string &kind, HostileShape shape, const std::string &subject, const std::string &body,
                  KernelState after, double gain_pct, Record r, const std::string &lever, bool with_capture) {
  Commit c;
  double after_geo = round_to(geo_ * (1.0 - gain_pct / 100.0), 2);
  c.message = message(v() + ": " + subject + " " + measured(geo_, after_geo), body);
  kernel(c, after);
  r.geo = after_geo;
  r.newer_template = n_ % 6 == 0;
  memory(c, r);
  if (with_capture)
    capture(c,
            prose_.fill("the kernel is bandwidth-bound: every row is read once and written once, so the "
                        "remaining time is HBM traffic, not instruction issue or occupancy."),
            "No shared-memory bank conflicts; warps active 64%.");
  truth_code(best_, after, 1);
  judge(after_geo, true, true);
  mark(shape);
  truth_.lever = lever;
  push(std::move(c), kind, {lever});
  best_ = after;
  best_version_ = v();
  geo_ = std::min(geo_, after_geo);
  last_kept_ = v();
}

void Teller::revert(const std::string &kind, HostileShape shape, const Move &m, const KernelState &attempt,
                    const KernelState &restored, const std::string &subject, const std::string &body, Record r) {
  double worse = round_to(geo_ * (1.0 + double(2 + hostile_rng_.below(6)) / 100.0), 2);
  Commit a;
  a.message = message(v() + ": try " + m.subject, "");
  kernel(a, attempt);
  story_.commits.push_back(std::move(a));
  Commit b;
  b.message = message(v() + ": reverted \xE2\x80\x94 " + subject + " " + measured(geo_, worse), body);
  kernel(b, restored);
  r.geo = worse;
  memory(b, r);
  truth_code(best_, attempt, 1);
  judge(worse, false, false);
  mark(shape);
  truth_.lever = m.name;
  push(std::move(b), kind, {m.name}, 2);
}

// 1. A clear gain whose code is invisible: a dead constant under the claim,
// a comment naming a real lever, or a helper nothing calls.
bool Teller::invisible_code() {
  unsigned variant = variants_[0]++;
  std::string claim = op_.kind == OpKind::RowNorm ? prose_.fill("fused the residual add into the {normalisation} pass")
                      : op_.kind == OpKind::RowSoftmax ? "folded the softmax scale into the exponent"
                                                       : "fused the bias add into the activation";
  std::string lever = claim, kind;
  KernelState after = best_;
  Record r;
  r.category = "fusion";
  r.change = capitalised(claim) + ", so the row is read once.";
  r.expected = "one pass over the row instead of two";
  if (variant % 3 == 0) {
    after.tune_id = 100000 + hostile_rng_.below(900000);
    after.tune_comment = claim;
    kind = "invisible-constant";
  } else if (variant % 3 == 1) {
    Move m = moves_.parameter(best_);
    after.extra_comment = m.subject + ": measured best on the long rows";
    claim = lever = m.subject;
    r.category = m.category;
    r.change = m.change;
    r.expected = m.expected;
    kind = "invisible-comment";
  } else {
    static const char *suffixes[] = {"", "_tiled", "_packed", "_wide"};
    std::string base = op_.kind == OpKind::RowNorm      ? "_fused_residual_"
                       : op_.kind == OpKind::RowSoftmax ? "_scaled_"
                                                        : "_biased_";
    after.uncalled_fn = base + op_.name + suffixes[(variant / 3) % 4];
    after.uncalled_claim = capitalised(claim) + ".";
    kind = "uncalled-function";
  }
  after.tuning_note = claim;
  keep(kind, HostileShape::InvisibleCode, claim, "", after, gain(3.0, 5.0), r, lever, hostile_rng_.chance(50));
  return true;
}

// 2. The prose's name for a lever is not the code's, and a comment repeating
// the claim sits hunks away from the change.
bool Teller::renamed_lever() {
  bool python = o_.dsl != Dsl::Cuda;
  std::vector<std::string> keys =
      python ? std::vector<std::string>{"block", "warps", "stages", "vec"} : std::vector<std::string>{"block", "vec"};
  if (python && best_.single_pass) keys.erase(keys.begin());
  std::size_t start = hostile_rng_.below(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string key = keys[(start + i) % keys.size()];
    Move m = moves_.parameter(key, best_);
    const KernelState &a = best_, &b = m.after;
    std::string lever, subject, change, claim;
    if (key == "block") {
      lever = "BLOCK_SIZE";
      subject = "BLOCK_SIZE " + std::to_string(a.block) + " -> " + std::to_string(b.block) + " for the long rows";
      change = subject + ", so each program covers " + std::to_string(b.block) + " columns per iteration.";
      claim = "BLOCK_SIZE " + std::to_string(b.block) + ": fewer loop iterations per row";
    } else if (key == "warps") {
      lever = "warps";
      subject = std::to_string(b.warps) + " warps per program instead of " + std::to_string(a.warps);
      change = "Ran " + std::to_string(b.warps) + " warps per program (was " + std::to_string(a.warps) +
               ") so the loads of a row overlap.";
      claim = std::to_string(b.warps) + " warps per program hide the load latency";
    } else if (key == "stages") {
      lever = "stages";
      subject = std::to_string(b.stages) + " stages for the column loop instead of " + std::to_string(a.stages);
      change = "Pipelined the column loop over " + std::to_string(b.stages) + " stages (was " +
               std::to_string(a.stages) + ").";
      claim = std::to_string(b.stages) + " stages keep the next tile's loads in flight";
    } else {
      if (b.vec <= a.vec) continue;
      lever = "vec" + std::to_string(b.vec);
      subject = lever + " loads for the row";
      change = capitalised(lever) + " loads: each thread reads " + std::to_string(b.vec) +
               " contiguous floats per load instruction.";
      claim = lever + " loads for the row";
    }
    KernelState after = m.after;
    after.tuning_note = subject;
    // A claim already in the file would make no hunk of its own.
    if (claim == best_.claim_comment) claim += " (re-measured)";
    after.claim_comment = claim;
    // Hunks away from the change: the vector hints open the kernel, the
    // launch parameters close the file.
    after.claim_at_wrapper = key == "vec";
    Record r;
    r.category = m.category;
    r.change = change;
    r.expected = m.expected;
    keep("renamed-lever", HostileShape::RenamedLevers, subject, "", after, gain(1.8, 3.5), r, lever);
    return true;
  }
  return false;
}

// 4. One dead-end retried with the same words and the same pitfall.
bool Teller::retried_deadend() {
  if (retried_) {
    KernelState attempt = with_lever(best_, retried_->move);
    if (code_change(o_.dsl, op_, best_, attempt).runs()) {
      const Move &m = retried_->move;
      attempt.tuning_note = m.subject + " (trial)";
      KernelState restored = best_;
      restored.extra_comment = m.name + " change tried and reverted, see the step notes";
      Record r;
      r.category = m.category;
      r.change = m.change;
      r.pitfalls.push_back(retried_->pitfall);
      truth_.repeats = retried_->versions;
      revert("retried-deadend", HostileShape::RepeatedPitfalls, m, attempt, restored, m.subject,
             "The change " + m.cause + ". Back to the previous setting.", r);
      retried_->versions.push_back(story_.manifest.back().version);
      return true;
    }
  }
  Move m = moves_.parameter(best_);
  Value e = Value::object();
  e.set("error_type", "performance");
  e.set("error_message", m.subject + " was slower");
  e.set("root_cause", "the change " + m.cause);
  e.set("fix_applied", "kept " + m.name + " at its previous value");
  e.set("lesson", "do not raise " + m.name + " again without a new reason");
  KernelState attempt = m.after;
  attempt.tuning_note = m.subject + " (trial)";
  KernelState restored = best_;
  restored.extra_comment = m.name + " change tried and reverted, see the step notes";
  Record r;
  r.category = m.category;
  r.change = m.change;
  r.pitfalls.push_back(e);
  retried_ = RetriedLever{{v()}, m, e};
  revert("retried-deadend", HostileShape::RepeatedPitfalls, m, attempt, restored, m.subject,
         "The change " + m.cause + ". Back to the previous setting.", r);
  return true;
}

// 5. Two kept steps that measure slower, then a milestone whose claim is in
// no code: its diff from the best-so-far holds the two earlier steps.
bool Teller::milestone_span() {
  bool python = o_.dsl != Dsl::Cuda;
  std::string key = python ? (best_.evict_first ? "stages" : "evict") : (best_.streaming_store ? "stages" : "store");
  Move m = moves_.parameter(key, best_);
  KernelState after = m.after;
  after.tuning_note = m.subject + ", kept";
  Record r;
  r.category = m.category;
  r.change = m.change;
  r.expected = m.expected;
  keep("neutral-kept", HostileShape::MilestoneSpan, m.subject + ", kept",
       "Kept although it measured a few tenths slower: the next steps build on it.", after, slower(1, 6), r, m.name);
  pending_.push_back({n_ + 1, [this, key] {
                        KernelState after = best_;
                        Record r;
                        std::string subject, lever;
                        if (op_.kind == OpKind::RowNorm && !best_.mean_by_multiply) {
                          after.mean_by_multiply = true;
                          lever = "variance rewrite";
                          subject = "variance rewrite: the mean of squares times INV_N_COLS, kept";
                          r.category = "math";
                          r.change = "Rewrote the variance as acc * INV_N_COLS instead of acc / N_COLS.";
                        } else {
                          // Another lever than the first step's, which it must not undo.
                          bool python = o_.dsl != Dsl::Cuda;
                          std::string other = key == "warps" ? "stages" : "warps";
                          if (python && key != "cache" && best_.load_cache.empty()) other = "cache";
                          Move m = moves_.parameter(other, best_);
                          after = m.after;
                          lever = m.name;
                          subject = m.subject + ", kept";
                          r.category = m.category;
                          r.change = m.change;
                          r.expected = m.expected;
                        }
                        after.tuning_note = subject;
                        keep("neutral-kept", HostileShape::MilestoneSpan, subject,
                             "Kept although it measured slower: the next step builds on it.", after, slower(0, 5), r,
                             lever);
                        pending_.push_back({n_ + 1, [this] {
                                              std::string claim = op_.kind == OpKind::RowNorm
                                                                      ? "weight tile kept in registers across the row"
                                                                      : "row tile kept in registers across both passes";
                                              KernelState after = best_;
                                              after.tuning_note = claim;
                                              Record r;
                                              r.category = "memory_traffic";
                                              r.change = capitalised(claim) + ", so it is loaded once per program.";
                                              r.expected = "no reload of the tile per column block";
                                              keep("span-milestone", HostileShape::MilestoneSpan, claim, "", after,
                                                   gain(2.2, 3.6), r, claim);
                                              return true;
                                            }});
                        return true;
                      }});
  return true;
}

// 6. A pitfall that contradicts its own measurement, and a lever recorded as
// failing that a later step keeps as a win.
bool Teller::contradicted_pitfall() {
  unsigned variant = variants_[5]++;
  bool done_rows = std::find(done_.begin(), done_.end(), "rows_per_prog") != done_.end();
  if (variant % 2 == 0) {
    bool recip = op_.kind != OpKind::Elementwise && !best_.reciprocal &&
                 std::find(done_.begin(), done_.end(), "reciprocal") == done_.end();
    Move m = recip ? moves_.structural("reciprocal", best_) : moves_.parameter(best_);
    if (recip) done_.push_back("reciprocal");
    KernelState after = m.after;
    after.tuning_note = m.subject;
    Record r;
    r.category = m.category;
    r.change = m.change;
    r.expected = m.expected;
    r.pitfalls.push_back(pitfall(m.name + " fails the accuracy check",
                                 "the relative error exceeds the 1e-5 tolerance on rows with large values",
                                 "keep the accurate form"));
    truth_.pitfall_contradicts = true;
    keep("contradicted-pitfall", HostileShape::ContradictedPitfalls, m.subject, m.body, after, gain(1.8, 3.5), r,
         m.name);
    return true;
  }
  bool rows = o_.dsl != Dsl::Cuda && best_.rows_per_prog == 1 && !done_rows;
  Move m = rows ? moves_.structural("rows_per_prog", best_) : moves_.parameter(best_);
  if (rows) done_.push_back("rows_per_prog");
  std::string failed = rows ? "two rows per program fails" : m.subject + " fails";
  std::string why =
      rows ? prose_.fill("the second row's loads {serialise} behind the first row's reduction") : prose_.fill(m.cause);
  KernelState attempt = m.after;
  attempt.tuning_note = m.subject + " (trial)";
  KernelState restored = best_;
  restored.extra_comment = m.name + " change tried and reverted, see the step notes";
  Record r;
  r.category = m.category;
  r.change = m.change;
  r.pitfalls.push_back(pitfall(failed, why, rows ? "one row per program" : "keep " + m.name + " as it was"));
  revert("failed-lever", HostileShape::ContradictedPitfalls, m, attempt, restored,
         rows ? "two rows per program (ROWS_PER_PROG=2)" : m.subject, capitalised(failed) + ": " + why + ".", r);
  std::string failed_at = story_.manifest.back().version;
  pending_.push_back({n_ + 2 + hostile_rng_.below(3), [this, m, failed_at] {
                        KernelState after = with_lever(best_, m);
                        if (!code_change(o_.dsl, op_, best_, after).runs()) return false;
                        after.tuning_note = m.subject;
                        Record r;
                        r.category = m.category;
                        r.change = m.change;
                        r.expected = m.expected;
                        truth_.refutes = {failed_at};
                        keep("refuted-failure", HostileShape::ContradictedPitfalls, m.subject, m.body, after,
                             gain(2.5, 4.0), r, m.name);
                        return true;
                      }});
  return true;
}

// 7. Reverts that mislead: list items the attempt does not hold, a revert
// whose diff is a comment, a restoration by a dead constant.
bool Teller::misleading_revert() {
  unsigned variant = variants_[6]++;
  Move m = moves_.parameter(best_);
  if (variant % 3 == 0) {
    std::vector<Move> named;
    for (int tries = 0; tries < 8 && named.size() < 2; ++tries) {
      Move x = moves_.parameter(best_);
      bool fresh = x.key != m.key;
      for (const auto &y : named) fresh = fresh && x.key != y.key;
      if (fresh) named.push_back(x);
    }
    double worse = round_to(geo_ * (1.0 + double(2 + hostile_rng_.below(6)) / 100.0), 2);
    std::vector<std::string> items = {m.subject + " " + m.cause + " (+" + fixed((worse - geo_) / geo_ * 100.0, 1) +
                                      "%)"};
    for (const auto &x : named) items.push_back(x.subject + " (no gain)");
    std::string list, also;
    for (std::size_t i = 0; i < items.size(); ++i) {
      list += (i ? ", " : "") + items[i];
      if (i) also += (i > 1 ? " and " : "") + named[i - 1].subject;
    }
    Commit c;
    KernelState attempt = m.after;
    attempt.tuning_note = m.subject + " (trial)";
    c.message =
        message(v() + ": reverted (dead-end recorded: " + list + ". Next: re-profile before the next lever)", "");
    kernel(c, attempt);
    Record r;
    r.geo = worse;
    r.category = m.category;
    r.change = m.change.substr(0, m.change.size() - 1) + (also.empty() ? "." : "; also tried " + also + ".");
    memory(c, r);
    truth_code(best_, attempt, 1);
    judge(worse, false, false);
    for (std::size_t i = 0; i < items.size(); ++i) truth_.listed_levers.push_back({items[i], i == 0});
    mark(HostileShape::MisleadingReverts);
    truth_.lever = m.name;
    std::vector<std::string> names = {m.name};
    for (const auto &x : named) names.push_back(x.name);
    push(std::move(c), "deadend-list-named", names);
    return true;
  }
  if (variant % 3 == 1) {
    double worse = round_to(geo_ * (1.0 + double(2 + hostile_rng_.below(6)) / 100.0), 2);
    KernelState after = best_;
    after.extra_comment = m.name + " change reverted, it " + m.cause;
    Commit c;
    c.message = message(v() + ": reverted " + m.subject + " " + measured(geo_, worse), "The change " + m.cause + ".");
    kernel(c, after);
    Record r;
    r.geo = worse;
    r.category = m.category;
    r.change = m.change;
    memory(c, r);
    truth_code(best_, after, 1);
    judge(worse, false, false);
    mark(HostileShape::MisleadingReverts);
    truth_.lever = m.name;
    push(std::move(c), "revert-comment-only", {m.name});
    return true;
  }
  KernelState attempt = m.after;
  attempt.tuning_note = m.subject + " (trial)";
  KernelState restored = best_;
  restored.tune_id = best_.tune_id ? best_.tune_id + 1 : 100000 + hostile_rng_.below(900000);
  if (restored.tune_comment.empty()) restored.tune_comment = "bench cache key, bumped on every rebuild";
  Record r;
  r.category = m.category;
  r.change = m.change;
  revert("restored-dead-constant", HostileShape::MisleadingReverts, m, attempt, restored, m.subject,
         "The change " + m.cause + ". Back to the previous kernel; _TUNE_ID bumped for the rebuild.", r);
  // The restoration is the kernel from now on: it differs from the floor's code by the dead constant.
  best_.tune_id = restored.tune_id;
  best_.tune_comment = restored.tune_comment;
  best_version_ = v();
  return true;
}

// 8. An earlier version quoted by a kernel comment or docstring that a
// verbatim snippet of this or any later kernel carries.
bool Teller::quoted_version() {
  unsigned variant = variants_[7]++;
  Move m = moves_.parameter(best_);
  std::string earlier = last_kept_;
  KernelState after = m.after;
  after.tuning_note = m.subject;
  if (variant % 2 == 0)
    after.note_comment = "see " + earlier + "'s note: " + m.name + " was tuned on the long rows";
  else
    after.doc_quote =
        "The " + m.name + " setting follows the measurement of " + earlier + " (see " + earlier + "'s note).";
  Record r;
  r.category = m.category;
  r.change = m.change;
  r.expected = m.expected;
  keep("quoted-version", HostileShape::QuotedVersions, m.subject, m.body, after, gain(1.8, 3.5), r, m.name, true);
  return true;
}

} // namespace otm::tracegen
