#include "tracegen/story.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "config/config.hpp"
#include "tracegen/code_change.hpp"
#include "tracegen/story_numbers.hpp"
#include "tracegen/teller.hpp"
#include "json/value.hpp"
#include "json/write.hpp"

namespace otm::tracegen {

using json::Value;

Teller::Teller(const TraceOptions &o)
    : o_(o), rng_(bench::Random::stream(o.seed, 0)), prose_(o.spelling, rng_),
      op_(operator_spec(o.op, std::vector<unsigned>{2048, 4096, 8192}[rng_.below(3)])), moves_(o.dsl, op_, prose_),
      milestone_pct_(config::Config::defaults().ladder().milestone_pct),
      hostile_rng_(bench::Random::stream(o.seed, 25)) {
  unsigned ms[] = {512, 1024, 2048, 4096, 8192, 16384, 32768};
  std::size_t count = 4 + rng_.below(4);
  double log_sum = 0;
  for (std::size_t i = 0; i < count; ++i) log_sum += std::log(double(ms[i]));
  double gm = std::exp(log_sum / double(count));
  for (std::size_t i = 0; i < count; ++i) {
    std::string u = hex(rng_, 8) + "-" + hex(rng_, 4) + "-4" + hex(rng_, 3) + "-9" + hex(rng_, 3) + "-" + hex(rng_, 12);
    shapes_.push_back({u, ms[i], std::pow(ms[i] / gm, 0.85)});
  }
  best_.block = o.dsl == Dsl::Cuda ? 128 : 256;
  best_.warps = o.dsl == Dsl::Cuda ? 1 : 4;
  best_.stages = 1;
  geo_ = round_to(60.0 + double(rng_.below(120)), 1);
  for (auto s : {HostileShape::InvisibleCode, HostileShape::RenamedLevers, HostileShape::RepeatedPitfalls,
                 HostileShape::MilestoneSpan, HostileShape::ContradictedPitfalls, HostileShape::MisleadingReverts,
                 HostileShape::QuotedVersions})
    if (on(s)) episodic_.push_back(s);
  if (on(HostileShape::RenamedLevers) && o.dsl != Dsl::Cuda) best_.block_name = "BLOCK_N";
}

Story Teller::run() {
  initial_import();
  baseline();
  for (n_ = 2; n_ <= o_.versions; ++n_) {
    if (n_ % 37 == 0) bookkeeping();
    step();
  }
  return std::move(story_);
}

std::string Teller::v() const { return "v" + std::to_string(n_); }
double Teller::progress() const { return double(n_) / double(std::max<std::size_t>(o_.versions, 2)); }

// ---- files ----

void Teller::add(Commit &c, const std::string &path, std::string content) {
  c.files.push_back({path, std::move(content)});
}

void Teller::kernel(Commit &c, const KernelState &s) {
  ++revision_;
  add(c, "kernel.py", render_kernel(o_.dsl, op_, s, revision_));
  head_ = s;
}

std::string Teller::memory_json(const Record &r) {
  Value m = Value::object();
  m.set("version", v());
  if (r.newer_template) {
    m.set("masked", false);
    m.set("timestamp", "2026-04-0" + std::to_string(1 + n_ % 9) + "T10:00:00Z");
  } else {
    m.set("timestamp", Value());
    m.set("git_commit_hash", hex(rng_, 8));
  }
  Value perf = Value::object();
  if (r.newer_template) {
    perf.set("latency_us", r.geo ? Value(*r.geo) : Value());
    perf.set("tflops", Value());
    perf.set("bandwidth_gbps", r.geo ? Value(round_to(2.0 * op_.n_cols * 4 * 4096 / (*r.geo * 1000.0), 1)) : Value());
  } else {
    perf.set("latency_us_geomean", r.geo ? Value(*r.geo) : Value());
    Value by = Value::object();
    double arith = 0;
    for (const auto &s : shapes_) {
      double l = r.geo ? round_to(*r.geo * s.factor, 2) : 0.0;
      arith += l;
      if (r.geo) by.set(s.uuid, l);
    }
    perf.set("latency_us_by_shape", by);
    perf.set("latency_us_arith_mean", r.geo ? Value(round_to(arith / double(shapes_.size()), 2)) : Value());
    perf.set("speedup_vs_ref_geomean", r.geo ? Value(round_to(base_geo_ / *r.geo * 1.1, 3)) : Value());
  }
  m.set("performance", perf);
  Value corr = Value::object();
  corr.set("status", r.status);
  if (r.newer_template) {
    corr.set("rel_err", r.max_rel_err);
  } else {
    corr.set("max_abs_err", r.max_abs_err);
    corr.set("max_rel_err", r.max_rel_err);
  }
  m.set("correctness", corr);
  Value gate = Value::object();
  gate.set("result", r.gate);
  gate.set("failure_reason", r.gate_reason.empty() ? Value() : Value(r.gate_reason));
  m.set("quality_gate", gate);
  Value opt = Value::object();
  opt.set("action_category", r.category);
  opt.set("action_description", r.change);
  opt.set("expected_impact", r.expected.empty() ? Value() : Value(r.expected));
  if (r.newer_template) opt.set("risks_and_rollback", "revert the commit; the previous kernel is the fallback");
  m.set("optimization", opt);
  m.set("open_directions", r.directions);
  m.set("pitfalls_and_fixes", r.pitfalls);
  m.set("search_log", Value::array());
  m.set("profile_evidence", Value::object());
  if (r.newer_template) m.set("experience", prose_.fill("The run {favours} small, measured steps."));
  std::string text = json::to_pretty(m);
  // A truncated step record: what a crash mid-write leaves.
  if (o_.variant == Variant::BrokenJson && n_ % 7 == 3) text = text.substr(0, text.size() / 2);
  return text;
}

void Teller::memory(Commit &c, const Record &given) {
  if (o_.variant == Variant::NoMemory) return;
  Record r = given;
  if (!o_.hostile.empty()) hostile_record(r);
  if (!r.expected.empty() && !truth_.expected_impact) truth_.expected_impact = "specific";
  add(c, "memory/" + v() + ".json", memory_json(r));
  if (rng_.chance(3) && r.geo) add(c, "memory/" + v() + "_rerun.json", memory_json(r));
}

// An ncu capture of the kernel under test (sometimes with an nsys
// timeline beside it, sometimes unfiltered: another kernel profiled).
void Teller::capture(Commit &c, const std::string &root_cause, const std::string &evidence) {
  if (o_.variant == Variant::NoProfiles) return;
  bool full = on(HostileShape::QuotedVersions);
  std::string dir = "profiles/" + v() + (full ? "_ncu_full/" : "_ncu/");
  std::string k = kernel_name(op_);
  unsigned dram = 55 + unsigned(rng_.below(38));
  truth_.capture_dirs.push_back(dir.substr(9, dir.size() - 10));
  truth_.quoted_versions.push_back(v()); // each report's title names its version
  // Under quoted-versions a report cites its own directory and the previous capture's.
  std::string cited;
  if (full) {
    mark(HostileShape::QuotedVersions);
    cited = "\nRaw capture: " + dir + "full.ncu-rep" +
            (last_capture_.empty() ? "" : "; compare profiles/" + last_capture_ + "_ncu_full/") + "\n";
    if (!last_capture_.empty()) truth_.quoted_versions.push_back(last_capture_);
    last_capture_ = v();
  }
  if (rng_.chance(12)) {
    add(c, dir + "summary.txt", "ncu --set full\nKernel: distribution_elementwise_grid_stride_kernel\n");
    add(c, dir + "REPORT.md",
        "# ncu report for " + v() +
            "\n\n## Key Finding: the capture profiled the RNG fill of the harness, not the "
            "kernel under test; re-capture with a kernel-name filter.\n" +
            cited);
    return;
  }
  add(c, dir + "summary.txt",
      "ncu --set full --kernel-name " + k + "\nKernel: " + k + "\nDRAM Throughput: " + std::to_string(dram) + " %\n");
  add(c, dir + "REPORT.md",
      "# ncu capture " + v() + "\n\n**Root cause**: " + root_cause + "\n\n**Evidence**: " + evidence +
          " DRAM throughput " + std::to_string(dram) + "% of peak in this capture.\n" + cited);
  if (rng_.chance(30)) {
    truth_.capture_dirs.push_back(v() + "-nsys");
    add(c, "profiles/" + v() + "-nsys/REPORT.md",
        "# nsys timeline for " + v() +
            "\n\n## Diagnosis\nLaunch gaps between programs are below 2 us; the timeline shows no host-side "
            "stalls, so the remaining time is inside the kernel.\n");
  }
}

void Teller::snapshot(Commit &c, const KernelState &s) {
  add(c, "versions/kernel_" + v() + ".py", render_kernel(o_.dsl, op_, s, revision_));
}

void Teller::push(Commit c, const std::string &kind, const std::vector<std::string> &names, std::size_t commits) {
  auto nl = c.message.find('\n');
  std::string subject = c.message.substr(0, nl);
  story_.commits.push_back(std::move(c));
  VersionNote note = std::move(truth_);
  truth_ = VersionNote{};
  note.version = v();
  note.kind = kind;
  note.names = names;
  note.subject = subject;
  note.commits = commits;
  if (!note.lever && !names.empty()) note.lever = names.front();
  std::sort(note.hostile.begin(), note.hostile.end());
  note.hostile.erase(std::unique(note.hostile.begin(), note.hostile.end()), note.hostile.end());
  std::sort(note.quoted_versions.begin(), note.quoted_versions.end());
  note.quoted_versions.erase(std::unique(note.quoted_versions.begin(), note.quoted_versions.end()),
                             note.quoted_versions.end());
  story_.manifest.push_back(std::move(note));
}

// ---- the ground truth ----

void Teller::truth_code(const KernelState &before, const KernelState &after, std::size_t commit) {
  auto change = code_change(o_.dsl, op_, before, after);
  truth_.code_names = change.names;
  truth_.dead_names = change.dead;
  truth_.runs = change.runs();
  truth_.code_commit = commit;
  truth_.tried_on = best_version_;
  for (auto &q : quotes_in(after)) truth_.quoted_versions.push_back(q);
  // Prose that says BLOCK_SIZE about a tile the code calls BLOCK_N.
  if (after.block_name != "BLOCK_SIZE" &&
      std::find(change.names.begin(), change.names.end(), after.block_name) != change.names.end())
    mark(HostileShape::RenamedLevers);
}

void Teller::judge(double after_geo, bool counted, bool kept, bool declares_no_change) {
  truth_.best_before = floor_version_;
  if (!counted) return;
  double improve = (geo_ - after_geo) / geo_ * 100.0;
  if (kept) {
    truth_.kept = true;
    truth_.milestone = improve >= milestone_pct_ && !declares_no_change;
    truth_.span = since_floor_;
    truth_.span.push_back(v());
    auto span = code_change(o_.dsl, op_, floor_code_, head_);
    truth_.span_code_names = span.names;
    truth_.span_dead_names = span.dead;
    truth_.span_runs = span.runs();
  }
  if (improve > 0) {
    floor_version_ = v();
    floor_code_ = head_;
    since_floor_.clear();
  } else if (kept) {
    since_floor_.push_back(v());
  }
}

std::string Teller::message(const std::string &subject, const std::string &body) {
  return body.empty() ? subject + "\n" : subject + "\n\n" + body + "\n";
}

std::string Teller::measured(double before, double after) {
  double pct = (after - before) / before * 100.0;
  if (rng_.chance(25)) return fixed(before, 1) + " -> " + fixed(after, 1) + " us";
  return std::string("(") + (pct >= 0 ? "+" : "") + fixed(pct, 1) + "%)";
}

void Teller::initial_import() {
  Commit c;
  c.message = "Initial import: harness, operator definition and workload\n\nBench notes live in notes/harness.txt.\n";
  Value def = Value::object();
  def.set("name", op_.name);
  def.set("description", op_.what + ".");
  Value axes = Value::object();
  Value m = Value::object();
  m.set("type", "var");
  axes.set("M", m);
  Value n = Value::object();
  n.set("type", "const");
  n.set("value", op_.n_cols);
  axes.set("N", n);
  Value dt = Value::object();
  dt.set("type", "const");
  dt.set("value", "float32");
  axes.set("dtype", dt);
  def.set("axes", axes);
  if (o_.variant != Variant::NoHardware) def.set("gpu", o_.gpu);
  add(c, "definition.json", json::to_pretty(def));
  Value sol = Value::object();
  sol.set("name", op_.name + "_" + dsl_name(o_.dsl));
  Value spec = Value::object();
  if (o_.variant != Variant::NoHardware) spec.set("target_hardware", Value::strings({o_.gpu}));
  spec.set("languages", Value::strings({dsl_name(o_.dsl)}));
  sol.set("spec", spec);
  add(c, "solution.json", json::to_pretty(sol));
  std::string workload;
  for (const auto &s : shapes_)
    workload += "{\"uuid\": \"" + s.uuid + "\", \"axes\": {\"M\": " + std::to_string(s.m) +
                ", \"N\": " + std::to_string(op_.n_cols) + "}, \"dtype\": \"float32\"}\n";
  add(c, "workload.jsonl", workload);
  add(c, "notes/harness.txt", "CUDA-event timing, 25 warm-up launches, median of 100 repeats per shape.\n");
  story_.commits.push_back(std::move(c));
}

void Teller::bookkeeping() {
  Commit c;
  c.message = "notes: profiling checklist after " + v() + "\n";
  add(c, "notes/profiling.txt",
      "Capture with --kernel-name " + kernel_name(op_) + "; the harness RNG fill is not the kernel.\nSession " +
          std::to_string(n_) + ".\n");
  story_.commits.push_back(std::move(c));
}

void Teller::baseline() {
  n_ = 1;
  base_geo_ = geo_;
  Commit c;
  std::string what = o_.dsl == Dsl::Cuda ? "one block per row" : "two-pass, one program per row";
  c.message = message("v1: baseline " + op_.name + ", " + what + ", " + fixed(geo_, 1) + " us geomean", "");
  kernel(c, best_);
  Record r;
  r.geo = geo_;
  r.category = "baseline";
  r.change = "Baseline " + op_.name + " kernel, " + what + ".";
  r.directions = directions();
  memory(c, r);
  truth_.code_commit = 1;
  truth_.runs = true; // the whole kernel
  truth_.kept = true;
  for (auto &q : quotes_in(best_)) truth_.quoted_versions.push_back(q);
  floor_code_ = head_;
  push(std::move(c), "baseline", {});
}

// Open directions naming structural moves still ahead, with a rationale
// a later step can take up.
Value Teller::directions() {
  Value d = Value::array();
  for (const auto &k : moves_.structural_keys(best_, done_)) {
    if (d.size() >= 2 || !rng_.chance(45)) continue;
    Move m = moves_.structural(k, best_);
    Value e = Value::object();
    e.set("direction", m.subject);
    e.set("rationale", m.body.empty() ? Value(m.expected) : Value(m.body));
    d.push_back(e);
  }
  return d;
}

void Teller::step() {
  if (!episodic_.empty() && hostile_step()) return;
  double p = progress();
  auto open = moves_.structural_keys(best_, done_);
  std::vector<unsigned> w = {
      unsigned(22 * (1.0 - 0.6 * p)) + 2,               // 0 kept parameter change
      open.empty() ? 0u : unsigned(40 * (1.0 - p)) + 2, // 1 structural
      6,                                                // 2 small kept change (under the milestone threshold)
      unsigned(6 + 8 * p),                              // 3 dead-end, list form
      unsigned(4 + 5 * p),                              // 4 dead-end, prose with one lever
      n_ - last_approximation_ > 40 ? 4u : 0u,          // 5 accuracy failure
      n_ - last_cosmetic_ > 12 ? 3u : 0u,               // 6 comment-only, claims a gain
      n_ - last_cosmetic_ > 12 ? 2u : 0u,               // 7 docstring-only, claims a gain
      2,                                                // 8 infrastructure outage
      1,                                                // 9 declared no change
      1,                                                // 10 quality gate timeout
  };
  switch (rng_.weighted(w)) {
  case 0: kept(moves_.parameter(best_), "param", 1.6, 4.5); break;
  case 1: structural(open.front()); break;
  case 2: kept(moves_.parameter(best_), "small", 0.1, 1.2); break;
  case 3: deadend_list(); break;
  case 4: deadend_prose(); break;
  case 5: approximation(); break;
  case 6: comment_only(); break;
  case 7: docstring_only(); break;
  case 8: infrastructure(); break;
  case 9: no_change(); break;
  default: gate_timeout(); break;
  }
}

double Teller::gain(double lo, double hi) {
  double decay = 1.0 - 0.5 * progress();
  double g = lo + (hi - lo) * double(rng_.below(1001)) / 1000.0;
  return std::max(lo, g * (lo < 1.5 ? 1.0 : decay));
}

void Teller::kept(Move m, const std::string &kind, double lo, double hi, bool mega) {
  Commit c;
  double after = round_to(geo_ * (1.0 - gain(lo, hi) / 100.0), 2);
  m.after.tuning_note = m.subject;
  if (rng_.chance(15)) m.after.warmup += 5; // an unrelated constant moves too
  std::string subject = v() + ": " + m.subject + " " + measured(geo_, after);
  std::string body = rng_.chance(55) ? m.body : "";
  if (rng_.chance(20)) {
    if (!body.empty()) body += ' ';
    body += "Builds on " + last_kept_ + ".";
  }
  c.message = message(subject, body);
  kernel(c, m.after);
  Record r;
  r.geo = after;
  r.category = m.category;
  r.change = m.change;
  r.expected = rng_.chance(70) ? m.expected : "";
  r.newer_template = n_ % 6 == 0;
  r.directions = directions();
  if (pending_pitfall_) r.pitfalls.push_back(*pending_pitfall_), pending_pitfall_.reset();
  memory(c, r);
  if (kind != "small" && rng_.chance(mega ? 100 : 22))
    capture(c,
            prose_.fill("the kernel is bandwidth-bound: every row is read once and written once, so the "
                        "remaining time is HBM traffic, not instruction issue or occupancy."),
            "No shared-memory bank conflicts; warps active 61%.");
  if (mega) snapshot(c, m.after);
  truth_code(best_, m.after, 1);
  judge(after, true, true);
  push(std::move(c), mega ? "mega" : kind, {m.name});
  best_ = m.after;
  best_version_ = v();
  geo_ = after;
  last_kept_ = v();
}

void Teller::structural(const std::string &key) {
  done_.push_back(key);
  Move m = moves_.structural(key, best_);
  bool mega = key == "single_pass" || key == "warp_shuffle";
  if (key == "rows_per_prog") return recommitted(m);
  if (key == "mask_free") {
    Value e = Value::object();
    e.set("pitfall", "Dropping the mask is only valid for N a multiple of BLOCK_SIZE");
    e.set("explanation", "a " + std::to_string(op_.n_cols - 96) + "-wide row would read past the end of the row");
    e.set("fix", "assert n_cols % BLOCK_SIZE == 0 in the wrapper");
    pending_pitfall_ = e;
  }
  kept(m, "structural", mega ? 21.0 : 3.0, mega ? 29.0 : 8.0, mega);
}

// A version committed twice: a first commit without the tail guard, then
// the fix, with the pitfall the run met.
void Teller::recommitted(Move m) {
  double first = round_to(geo_ * 0.979, 2), after = round_to(geo_ * (1.0 - gain(2.0, 3.5) / 100.0), 2);
  KernelState buggy = m.after;
  buggy.tail_guard = false;
  buggy.tuning_note = m.subject;
  Commit a;
  a.message = message(v() + ": " + m.subject + " " + measured(geo_, first), "");
  kernel(a, buggy);
  story_.commits.push_back(std::move(a));
  Commit b;
  m.after.tuning_note = m.subject + ", tail guard";
  b.message = message(v() + ": " + m.subject + ", fixed the tail guard for odd row counts " + measured(geo_, after),
                      "The first " + v() + " commit read one row past the end when M is odd.");
  kernel(b, m.after);
  Record r;
  r.geo = after;
  r.category = m.category;
  r.change = m.change;
  r.expected = m.expected;
  Value e = Value::object();
  e.set("pitfall", "Row packing without a tail check reads past the last row");
  e.set("explanation", "with ROWS_PER_PROG=2 and odd M the second row of the last program equals n_rows");
  e.set("fix", "guard the second row with if row < n_rows");
  r.pitfalls.push_back(e);
  memory(b, r);
  truth_code(best_, m.after, 2);
  judge(after, true, true);
  push(std::move(b), "recommitted", {m.name}, 2);
  best_ = m.after;
  best_version_ = v();
  geo_ = after;
  last_kept_ = v();
}

// Reverted, the list form: the first lever is the commit's code, the
// others are only named.
void Teller::deadend_list() {
  Move m = moves_.parameter(best_);
  double worse = round_to(geo_ * (1.0 + double(2 + rng_.below(9)) / 100.0), 2);
  std::string pct = fixed((worse - geo_) / geo_ * 100.0, 1);
  std::vector<std::string> items = {m.subject + " " + m.cause + " (+" + pct + "%)"};
  // Levers only named in the list, each once in a run (then the list
  // starts over), some with a stated cause, some bare comparisons.
  static const std::vector<std::string> others = {
      "split-row two-program reduction 2x slower",
      "shared-memory staging of the row is slower because the tile forces a barrier per row",
      "TMA descriptor loads gain nothing for one row per program (latency-bound)",
      "cp.async with 3 stages adds a barrier per stage",
      "a second accumulator per thread (no effect)",
      "two rows per program {serialises} the stores of the second row",
      "an fp16 copy of the row for the second pass fails the 1e-5 tolerance",
      "a warp per row on the short shapes leaves three quarters of each SM idle because occupancy is capped",
      "a column-major tile order thrashes L2 (+9%)",
      "prefetching the next row with a dummy load costs more than it saves",
      "a larger grid than rows (2x slower)",
      "int64 offsets everywhere (flat within noise)",
  };
  std::size_t extra = 1 + rng_.below(2);
  for (std::size_t i = 0; i < extra; ++i) items.push_back(prose_.fill(others[other_index_++ % others.size()]));
  std::string list;
  for (const auto &i : items) {
    if (!list.empty()) list += ", ";
    list += i;
  }
  auto next = moves_.structural_keys(best_, done_);
  std::string direction =
      next.empty() ? "re-profile before the next lever" : moves_.structural(next.front(), best_).subject;
  Commit c;
  KernelState attempt = m.after;
  attempt.tuning_note = m.subject + " (trial)";
  c.message = message(v() + ": reverted (dead-end recorded: " + list + ". Next: " + direction + ")", "");
  kernel(c, attempt);
  Record r;
  r.geo = worse;
  r.category = m.category;
  r.change = m.change.substr(0, m.change.size() - 1) + "; also tried " + items[1] + ".";
  memory(c, r);
  truth_code(best_, attempt, 1);
  judge(worse, false, false);
  for (std::size_t i = 0; i < items.size(); ++i) truth_.listed_levers.push_back({items[i], i == 0});
  push(std::move(c), "deadend-list", {m.name});
}

// Reverted, the prose form: one lever with its stated cause, tried in one
// commit and reverted in a second that rewrote a comment.
void Teller::deadend_prose() {
  Move m = moves_.parameter(best_);
  double worse = round_to(geo_ * (1.0 + double(2 + rng_.below(7)) / 100.0), 2);
  Commit a;
  KernelState attempt = m.after;
  attempt.tuning_note = m.subject + " (trial)";
  a.message = message(v() + ": try " + m.subject, "");
  kernel(a, attempt);
  story_.commits.push_back(std::move(a));
  Commit b;
  KernelState restored = best_;
  restored.extra_comment = m.name + " change tried and reverted, see the step notes";
  std::string cause = m.cause;
  b.message = message(v() + ": reverted " + "\xE2\x80\x94 " + m.subject + " " + measured(geo_, worse),
                      "The change " + cause + ". Back to the previous setting, which stays the best so far.");
  kernel(b, restored);
  Record r;
  r.geo = worse;
  r.category = m.category;
  // One lever, one sentence, ending in one full stop.
  std::string lever = m.change.substr(0, m.change.find(" so "));
  if (!lever.ends_with('.')) lever += '.';
  r.change = lever;
  if (rng_.chance(50)) {
    Value e = Value::object();
    e.set("error_type", "performance");
    e.set("error_message", m.subject + " was slower");
    e.set("root_cause", "the change " + cause);
    e.set("fix_applied", "kept " + m.name + " at its previous value");
    e.set("lesson", "measure the register count before raising " + m.name);
    r.pitfalls.push_back(e);
  }
  memory(b, r);
  truth_code(best_, attempt, 1);
  judge(worse, false, false);
  push(std::move(b), "deadend-prose", {m.name}, 2);
}

// A faster attempt the ratchet rejects (its code stays in git; the next
// step starts from the best-so-far again): `failed` says how it failed.
void Teller::rejected_attempt(Move m, double factor, const std::string &kind,
                              const std::function<void(Record &)> &failed) {
  double after = round_to(geo_ * factor, 2);
  Commit c;
  m.after.tuning_note = m.subject;
  c.message = message(v() + ": " + m.subject + " " + measured(geo_, after), "");
  kernel(c, m.after);
  Record r;
  r.geo = after;
  r.category = m.category;
  r.change = m.change;
  failed(r);
  memory(c, r);
  truth_code(best_, m.after, 1);
  judge(after, false, false);
  push(std::move(c), kind, {m.name});
}

void Teller::approximation() {
  last_approximation_ = n_;
  Move m = moves_.approximation(best_);
  rejected_attempt(m, 0.945, "incorrect", [&](Record &r) {
    r.status = "FAIL";
    r.max_abs_err = 0.0031;
    r.max_rel_err = 0.0044;
    Value e = Value::object();
    e.set("pitfall", "the " + m.name + " approximation fails the accuracy gate");
    e.set("explanation", m.cause);
    e.set("fix", "keep the accurate form; the approximation is only safe at a 1e-2 tolerance");
    r.pitfalls.push_back(e);
  });
}

void Teller::comment_only() {
  last_cosmetic_ = n_;
  KernelState s = best_;
  // A comment and the claim the run made for the step that added it.
  static const char *notes[][3] = {
      {"tile schedule retuned for the long rows", "retuned the tile schedule for the long rows",
       "Retuned the tile schedule for the long rows."},
      {"measured on the warm-L2 harness", "re-measured on the warm-L2 harness", "Re-measured on the warm-L2 harness."},
      {"the long rows dominate the geomean", "tuned for the long rows that dominate the geomean",
       "Tuned for the long rows that dominate the geomean."},
      {"launch order matches the bench", "matched the launch order of the bench",
       "Matched the launch order of the bench."}};
  const auto &note = notes[cosmetic_count_++ % 4];
  s.extra_comment = note[0];
  s.tuning_note = note[1];
  double after = round_to(geo_ * (1.0 - gain(1.8, 3.0) / 100.0), 2);
  Commit c;
  c.message = message(v() + ": " + note[1] + " " + measured(geo_, after), "");
  kernel(c, s);
  Record r;
  r.geo = after;
  r.category = "tuning";
  r.change = note[2];
  memory(c, r);
  truth_code(best_, s, 1);
  judge(after, true, true);
  truth_.lever = note[1];
  push(std::move(c), "comment-only", {});
  best_ = s;
  best_version_ = v();
  geo_ = after;
  last_kept_ = v();
}

void Teller::docstring_only() {
  last_cosmetic_ = n_;
  KernelState s = best_;
  s.docs_note = prose_.fill("The reduction order is fixed per row, so results are bitwise reproducible; the "
                            "{normaliser} is applied once per row.");
  s.tuning_note = "documented the reduction order";
  double after = round_to(geo_ * (1.0 - gain(1.6, 2.4) / 100.0), 2);
  Commit c;
  c.message = message(v() + ": documented the reduction order in the module docstring " + measured(geo_, after), "");
  kernel(c, s);
  Record r;
  r.geo = after;
  r.category = "documentation";
  r.change = "Documented the fixed reduction order in the module docstring.";
  memory(c, r);
  truth_code(best_, s, 1);
  judge(after, true, true);
  truth_.lever = s.tuning_note;
  push(std::move(c), "docstring-only", {});
  best_ = s;
  best_version_ = v();
  geo_ = after;
  last_kept_ = v();
}

void Teller::infrastructure() {
  Commit c;
  c.message = message(v() + ": infra outage, GPU unavailable on the shared node, not_run", "");
  Record r;
  r.gate = "NOT_RUN";
  r.gate_reason = "the node was drained for maintenance";
  r.category = "infrastructure";
  r.change = "No measurement: the node was drained.";
  memory(c, r);
  judge(0, false, false);
  push(std::move(c), "infrastructure", {});
}

void Teller::no_change() {
  Commit c;
  double after = round_to(geo_ * 0.997, 2);
  c.message = message(v() + ": NO_CHANGE rebuild after the toolchain upgrade, flat-within-noise", "");
  Record r;
  r.geo = after;
  r.category = "rebuild";
  r.change = "Rebuild after the toolchain upgrade; no kernel change.";
  memory(c, r);
  judge(after, true, false, true);
  push(std::move(c), "no-change", {});
  geo_ = std::min(geo_, after);
}

void Teller::gate_timeout() {
  rejected_attempt(moves_.parameter(best_), 0.96, "gate-fail", [](Record &r) {
    r.gate = "TIMEOUT_FAIL";
    r.gate_reason = "the harness timed out on the largest shape";
  });
}

Story write_story(const TraceOptions &options) { return Teller(options).run(); }

} // namespace otm::tracegen
