// The teller of one generated trace (internal to tracegen): the run's state
// version by version, the files a commit writes, the ordinary story
// (story.cpp), the hostile shapes (hostile_shapes.cpp), and the ground
// truth each version's manifest line records. write_story() is its only
// caller.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "storegen/random.hpp"
#include "tracegen/moves.hpp"
#include "tracegen/story.hpp"
#include "json/value.hpp"

namespace otm::tracegen {

struct WorkloadShape {
  std::string uuid;
  unsigned m;
  double factor; // latency relative to the geomean (the factors' geomean is 1)
};

// What one version's step record says.
struct Record {
  std::optional<double> geo;
  std::string status = "PASS";
  double max_abs_err = 1.9e-06, max_rel_err = 3.1e-06;
  std::string gate = "PASS";
  std::string gate_reason;
  std::string category, change, expected;
  json::Value directions = json::Value::array();
  json::Value pitfalls = json::Value::array();
  bool newer_template = false;
};

// A later part of a hostile episode, told at version `at` or after; false
// when it no longer fits the story (the ordinary step follows instead).
struct PendingPart {
  std::size_t at;
  std::function<bool()> tell;
};

// A dead-end the repeated-pitfalls shape retries, as first recorded.
struct RetriedLever {
  std::vector<std::string> versions; // the first and every retry
  Move move;
  json::Value pitfall;
};

class Teller {
public:
  explicit Teller(const TraceOptions &o);
  Story run();

private:
  // ---- the ordinary story (story.cpp) ----
  std::string v() const;
  double progress() const;
  void add(Commit &c, const std::string &path, std::string content);
  void kernel(Commit &c, const KernelState &s);
  std::string memory_json(const Record &r);
  void memory(Commit &c, const Record &r);
  void capture(Commit &c, const std::string &root_cause, const std::string &evidence);
  void snapshot(Commit &c, const KernelState &s);
  void push(Commit c, const std::string &kind, const std::vector<std::string> &names, std::size_t commits = 1);
  static std::string message(const std::string &subject, const std::string &body);
  std::string measured(double before, double after);
  void initial_import();
  void bookkeeping();
  void baseline();
  json::Value directions();
  void step();
  double gain(double lo, double hi);
  void kept(Move m, const std::string &kind, double lo, double hi, bool mega = false);
  void structural(const std::string &key);
  void recommitted(Move m);
  void deadend_list();
  void deadend_prose();
  void rejected_attempt(Move m, double factor, const std::string &kind, const std::function<void(Record &)> &failed);
  void approximation();
  void comment_only();
  void docstring_only();
  void infrastructure();
  void no_change();
  void gate_timeout();

  // ---- the ground truth of the version being told (story.cpp) ----
  // Its own change: from `before` (the code it was tried on) to `after`,
  // the code its commit number `commit` holds.
  void truth_code(const KernelState &before, const KernelState &after, std::size_t commit);
  // Its measurement against the floor, which it moves when it is counted
  // (a passing, unreverted measurement) and faster; `kept`: its code is
  // the best-so-far kernel from now on.
  void judge(double after_geo, bool counted, bool kept, bool declares_no_change = false);

  // ---- the hostile shapes (hostile_shapes.cpp) ----
  bool on(HostileShape s) const;
  void mark(HostileShape s);
  // Tells version n_ as a part of a hostile episode, if one is due or
  // starts; each episode's first part says false when it cannot be told now.
  bool hostile_step();
  bool invisible_code();
  bool renamed_lever();
  bool retried_deadend();
  bool milestone_span();
  bool contradicted_pitfall();
  bool misleading_revert();
  bool quoted_version();
  // A kept hostile step: `after` committed with `subject`, `gain_pct`
  // faster than the floor (negative: slower, kept anyway).
  void keep(const std::string &kind, HostileShape shape, const std::string &subject, const std::string &body,
            KernelState after, double gain_pct, Record r, const std::string &lever, bool with_capture = false);
  // A dead-end tried in one commit and restored in a second (`restored`).
  void revert(const std::string &kind, HostileShape shape, const Move &m, const KernelState &attempt,
              const KernelState &restored, const std::string &subject, const std::string &body, Record r);
  double slower(unsigned lo_tenths, unsigned hi_tenths);
  // Step-record text for the hostile shapes that rewrite every record.
  void hostile_record(Record &r);
  std::vector<std::string> quotes_in(const KernelState &s) const;

  const TraceOptions &o_;
  bench::Random rng_;
  Prose prose_;
  OperatorSpec op_;
  Moves moves_;
  std::vector<WorkloadShape> shapes_;
  KernelState best_;
  double geo_ = 100.0, base_geo_ = 100.0;
  std::size_t n_ = 0;
  unsigned revision_ = 0;
  std::size_t last_approximation_ = 0, last_cosmetic_ = 0, cosmetic_count_ = 0, other_index_ = 0;
  std::string last_kept_ = "v1";
  std::vector<std::string> done_;
  std::optional<json::Value> pending_pitfall_;
  Story story_;

  // The ground truth (never drawn from rng_: the story stays as it was).
  double milestone_pct_;
  KernelState head_;                     // the code of the last commit that wrote kernel.py
  std::string best_version_ = "v1";      // the version whose last commit holds best_
  VersionNote truth_;                    // the version being told
  std::string floor_version_ = "v1";     // the version holding the floor (the ladder's best-so-far)
  KernelState floor_code_;               // the code of its last commit
  std::vector<std::string> since_floor_; // kept versions after it that did not move the floor

  // The hostile shapes' own state and random stream (unused without them).
  bench::Random hostile_rng_;
  std::vector<HostileShape> episodic_; // the requested shapes told as episodes, in order
  std::vector<PendingPart> pending_;
  std::size_t episodes_ = 0;
  unsigned variants_[8] = {}; // episodes told per shape (each rotates its variants)
  std::vector<std::pair<std::string, json::Value>> recorded_pitfalls_; // (version, pitfall)
  std::optional<RetriedLever> retried_;
  std::string last_capture_; // the version of the last capture directory
};

} // namespace otm::tracegen
