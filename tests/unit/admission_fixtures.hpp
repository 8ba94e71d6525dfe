// Test fixtures for the admission gate, scoring and README tests: a
// fictional clean-1.3 record, temp live stores, process helpers, and a check
// that records/ and records/index.json agree (the property the store's ids
// and index gates enforce).
#pragma once

#include "test_paths.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "admission/index_entry.hpp"
#include "config/config.hpp"
#include "gates/context.hpp"
#include "gates/gates.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "schema/builtin_schemas.hpp"
#include "scratch.hpp"
#include "store/candidate_summary.hpp"
#include "store/index_keys.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

extern char **environ;

namespace otm::testing {

namespace fs = std::filesystem;

inline json::Value strategy_record(const std::string &id,
                                   const std::string &episode_key = "blackwell|triton|toy-op|wide_loads|operator",
                                   double pct = 12.5) {
  json::Value r = json::parse(R"({
 "schema": "clean-1.3",
 "id": "",
 "type": "strategy",
 "level": "operator",
 "status": "active",
 "episode_key": "",
 "retrieval": {
  "scope": {"vendor": "nvidia", "arch": "blackwell", "product": "b200", "dsl": "triton",
            "operator_family": "toy-op", "operators": ["toy-op"], "shape_signature": {}},
  "generality": {"arch": "blackwell", "language": "triton", "workload_family": "misc"},
  "signals": {"metrics": {}, "shape_regime": {"predicate": "*", "var_axes": [], "n_shapes": 3}, "symptoms": []},
  "technique_tags": ["wide-loads"],
  "triggers": ["row loads are narrow"]
 },
 "payload": {
  "goal": "Make the toy kernel read rows with wide loads. Then measure.",
  "problem": {"target": "toy-op latency", "statement": "Rows are read four bytes at a time.", "operator": "toy-op"},
  "trace": {"builds_on": {"approach": "baseline kernel", "is_baseline": true}},
  "change": "Read each row with 16-byte vector loads.",
  "mechanism": "Fewer memory transactions per row.",
  "implementation": {"format": "none"},
  "cost": {"edit_scope": "one-line", "risk": "low"},
  "next_steps": []
 },
 "evidence": {"summary": {"confidence": "measured", "measured_on": {"harness": "toy harness", "gpu": "b200"}},
              "raw": {"source_repo": "toy-trace", "version": "v3", "git_commit": "abc1234"}},
 "worth": {
  "rank": {"score": 0.5, "tier": "promising"},
  "gain": {"basis": "measured", "kind": "performance", "primary": "latency", "pct": 0.0,
           "metrics": [{"metric": "latency", "direction": "lower-better", "source": "harness", "delta_pct": 0.0}]},
  "track": {"counters": {"query_count": 0, "served_count": 0, "applied_count": 0, "verified_effective": 0,
                         "verified_ineffective": 0, "fallback_served": 0},
            "prior": {"step_gain_pct": 0.0, "corpus_kept_ratio": 0.4}}
 }
})");
  r.set("id", id);
  r.set("episode_key", episode_key);
  json::Value worth = r.get("worth");
  json::Value gain = worth.get("gain");
  gain.set("pct", pct);
  json::Value metrics = gain.get("metrics");
  json::Value m = metrics[0];
  m.set("delta_pct", pct);
  json::Array ms{m};
  gain.set("metrics", json::Value(ms));
  worth.set("gain", gain);
  r.set("worth", worth);
  return r;
}

// `v` with the value at `path` (object keys) replaced by `leaf`.
inline json::Value with_path(const json::Value &v, const std::vector<std::string> &path, json::Value leaf,
                             std::size_t at = 0) {
  json::Value out = v;
  if (at + 1 == path.size()) {
    out.set(path[at], std::move(leaf));
  } else {
    out.set(path[at], with_path(v.get(path[at]), path, std::move(leaf), at + 1));
  }
  return out;
}

// tests/support's scratch directory, under the name these tests use.
struct TempDir {
  testsupport::TempDir dir{"admission"};
  fs::path path = dir.path();
};

// A live store with `n` records and a matching index.
inline void seed_live_store(const fs::path &root, int n) {
  json::Value index = nullptr;
  for (int i = 0; i < n; ++i) {
    char id[64];
    std::snprintf(id, sizeof id, "nvidia.b200.triton.seed-op.seed-%02d-s01", i);
    json::Value r =
        strategy_record(id, std::string("blackwell|triton|seed-op|seed_") + std::to_string(i) + "|operator");
    r = with_path(r, {"retrieval", "scope", "operator_family"}, "seed-op");
    auto rel = record::record_relpath(r);
    io::write_file_atomic(root / "records" / rel, json::to_pretty(r));
    index = admission::index_with_entry(index, admission::live_index_entry(r, "records/" + rel.generic_string()));
  }
  if (n > 0) io::write_file_atomic(root / "records" / "index.json", json::to_pretty(index));
  fs::create_directories(root / "records");
}

// Where records/ and records/index.json disagree (empty when they agree):
// every file parses, is named <id>.json, ids are unique, the index lists
// exactly the files' ids with equal retrieval, worth_score, tier and gain_pct,
// and its count matches.
// Where the keys index (store/index_keys.hpp) disagrees with the index
// (base and journal folded) and the records as a reader sees them: every
// entry's path, its text where the keys say it is, its record's summary,
// and the ids a scope query of everything returns.
inline std::vector<std::string> keys_disagreements(const fs::path &root, const json::Value &index,
                                                   const std::vector<store::StoredRecord> &recs) {
  std::vector<std::string> out;
  std::optional<store::KeysIndex> keys;
  try {
    keys = store::KeysIndex::open(root);
  } catch (const std::exception &e) {
    return {std::string("keys: ") + e.what()};
  }
  std::map<std::string, const json::Value *> by_id;
  for (const auto &r : recs)
    if (r.parse_error.empty()) by_id[r.record.string_or("id")] = &r.record;
  std::vector<std::string> ids;
  for (const auto &e : *index.get("records").as_array()) {
    std::string id = e.string_or("id");
    ids.push_back(id);
    if (keys->path_of(id) != std::optional<std::string>(e.string_or("path")))
      out.push_back(id + ": keys: another path");
    auto text = keys->entry_text(id);
    if (!text || !(json::parse(*text) == e)) out.push_back(id + ": keys: the entry's text is not the index's entry");
    auto summary = keys->summary_of(id);
    auto rec = by_id.find(id);
    if (!summary)
      out.push_back(id + ": keys: no entry");
    else if (rec != by_id.end() && *summary != store::candidate_summary_text(*rec->second))
      out.push_back(id + ": keys: the summary is not the record's");
  }
  std::vector<std::string> scoped;
  auto everything = keys->in_scope(json::Value::object());
  for (const auto &row : everything.rows) {
    scoped.emplace_back(row.id);
    if (row.summary != keys->summary_of(row.id).value_or(""))
      out.push_back(std::string(row.id) + ": keys: the scope's summary");
  }
  std::sort(ids.begin(), ids.end());
  if (scoped != ids) out.push_back("keys: a scope of everything is not the index's ids");
  return out;
}

inline std::vector<std::string> store_disagreements(const fs::path &root) {
  std::vector<std::string> out;
  auto recs = store::load_records(root);
  std::set<std::string> ids;
  for (const auto &r : recs) {
    if (!r.parse_error.empty()) {
      out.push_back(r.parse_error);
      continue;
    }
    std::string id = r.record.string_or("id");
    if (!ids.insert(id).second) out.push_back("duplicate id " + id);
    if (fs::path(r.relpath).filename() != id + ".json") out.push_back(r.relpath + ": file name is not <id>.json");
  }
  std::optional<json::Value> index;
  try {
    index = store::load_index(root);
  } catch (const std::exception &e) {
    out.push_back(std::string("index: ") + e.what());
    return out;
  }
  if (!index) {
    if (!recs.empty()) out.push_back("index missing");
    return out;
  }
  std::set<std::string> indexed;
  for (const auto &e : *index->get("records").as_array()) indexed.insert(e.string_or("id"));
  if (indexed != ids) out.push_back("index ids differ from record ids");
  if (index->get("count").as_int() != static_cast<long long>(index->get("records").size()))
    out.push_back("index count is wrong");
  for (const auto &r : recs) {
    for (const auto &e : *index->get("records").as_array()) {
      if (e.string_or("id") != r.record.string_or("id")) continue;
      const auto &w = r.record.get("worth");
      if (!(e.get("retrieval") == r.record.get("retrieval")) || !(e.get("worth_score") == w.get("rank").get("score")) ||
          !(e.get("tier") == w.get("rank").get("tier")) || !(e.get("gain_pct") == w.get("gain").get("pct")))
        out.push_back(r.relpath + ": index entry differs from the record");
    }
  }
  for (auto &problem : keys_disagreements(root, *index, recs)) out.push_back(std::move(problem));
  return out;
}

// Failures of the nine store gates (lib/stages/gates, as otm-validate runs them)
// over the store at `root`, each as "<gate>: <file>: <message>".
inline std::vector<std::string> store_gate_failures(const fs::path &root) {
  gates::Context ctx;
  ctx.store_root = root;
  ctx.records = gates::records_from_store(root);
  try {
    ctx.index = gates::load_gate_index(root, {});
  } catch (const json::ParseError &) {
    ctx.index_unreadable = true;
  }
  static const auto schema = std::make_shared<const schema::Schema>(
      json::parse(schema::builtin_store_schema_text(), "built-in clean-1.3 schema"), "built-in clean-1.3 schema");
  ctx.store_schema = schema;
  ctx.id_products = gates::target_products(config::Config::defaults());
  std::vector<std::string> out;
  for (const auto &g : gates::all_gates()) {
    if (g.kind != gates::GateKind::Store) continue;
    for (const auto &f : gates::run_gate(g, ctx).findings) out.push_back(f.gate + ": " + f.file + ": " + f.message);
  }
  return out;
}

inline std::string bin(const std::string &tool) { return (fs::path(otm::testing::bin_dir()) / tool).string(); }

// Starts a process with stdout/stderr sent to /dev/null; returns its pid.
inline pid_t spawn(const std::vector<std::string> &args) {
  std::vector<char *> argv;
  for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

// Exit code, or 128 + signal.
inline int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

inline int run(const std::vector<std::string> &args) { return wait_for(spawn(args)); }

// Kills commits at random points of their run, keeping the window on the
// commit as the machine's speed changes: calibrated by one complete run
// (ASan builds are slower), it shrinks after a run that finished first and
// widens after a kill. The commit's writes come last in a run (after
// reading and validating the record), so each kill lands in the second half
// of the window.
class KillWindow {
public:
  KillWindow(long full_run_us, unsigned seed) : max_delay_us_(full_run_us), rng_(seed) {}

  // Runs `args`, kills it after a random delay; its exit code or 128 + signal.
  int run_and_kill(const std::vector<std::string> &args) {
    pid_t pid = spawn(args);
    if (pid <= 0) return -1;
    std::this_thread::sleep_for(std::chrono::microseconds(
        std::uniform_int_distribution<long>(max_delay_us_ * lowest_share_pct_ / 100, max_delay_us_)(rng_)));
    ::kill(pid, SIGKILL);
    int rc = wait_for(pid);
    if (rc == 128 + SIGKILL) {
      ++killed_;
      max_delay_us_ = max_delay_us_ * 11 / 10 + 1;
    } else {
      ++completed_;
      max_delay_us_ = max_delay_us_ * 7 / 10 + 1;
    }
    return rc;
  }
  // Kills only in the last 15 % of the window from now on: a commit is the
  // end of a run, and on a loaded machine the run's start varies more than
  // the whole commit lasts (a CI run under load killed 300 times, never in
  // a commit).
  void narrow_to_the_tail() { lowest_share_pct_ = 85; }
  int killed() const { return killed_; }
  int completed() const { return completed_; }

private:
  long max_delay_us_;
  long lowest_share_pct_ = 50;
  std::mt19937 rng_;
  int killed_ = 0, completed_ = 0;
};

// How many kills a test makes: 30, or OTM_KILL_SOAK for a soak run.
inline int kill_iterations() {
  const char *soak = std::getenv("OTM_KILL_SOAK");
  return soak ? std::max(30, std::atoi(soak)) : 30;
}

// How long `args` takes to run once, in microseconds (and that it succeeded).
inline long timed_run_us(const std::vector<std::string> &args, int &rc) {
  auto t0 = std::chrono::steady_clock::now();
  rc = run(args);
  return static_cast<long>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count());
}

// The argv of `otm-wiki-gate commit ACTION SRC --live LIVE [--target T]`.
inline std::vector<std::string> gate(const std::string &action, const fs::path &src, const fs::path &live,
                                     const std::string &target = "") {
  std::vector<std::string> args{bin("otm-wiki-gate"), "commit", action, src.string(), "--live", live.string()};
  if (!target.empty()) {
    args.push_back("--target");
    args.push_back(target);
  }
  return args;
}

// `rec` written to DIR/<id>.json, the file a commit reads.
inline fs::path stage(const fs::path &dir, const json::Value &rec) {
  fs::path p = dir / (rec.string_or("id", "record") + ".json");
  io::write_file_atomic(p, json::to_pretty(rec), io::FileClass::Scratch);
  return p;
}

// The id of the i-th fictional record of a series ("par", 3), its slug number s.
inline std::string nth_id(const std::string &stem, int i, int s = 1) {
  char id[128];
  std::snprintf(id, sizeof id, "nvidia.b200.triton.toy-op.%s-%02d-s%02d", stem.c_str(), i, s);
  return id;
}

} // namespace otm::testing
