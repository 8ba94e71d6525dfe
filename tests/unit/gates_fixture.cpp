#include "gates_fixture.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "gates/denylist.hpp"
#include "gates/gates.hpp"
#include "io/file.hpp"
#include "process.hpp"
#include "record/store_layout.hpp"
#include "schema/builtin_schemas.hpp"
#include "scratch.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::testing {

namespace fs = std::filesystem;

namespace {

std::string run(const std::string &cmd) { return testsupport::sh_out(cmd); }

fs::path fresh_dir() { return testsupport::fresh_temp_dir("gates"); }

const char *kRecord = R"J({
 "schema": "clean-1.3",
 "id": "nvidia.b200.triton.fused-softmax.row-tiling-s01",
 "type": "strategy",
 "level": "operator",
 "status": "active",
 "episode_key": "blackwell|triton|fused-softmax|row_tiling|operator",
 "retrieval": {
  "scope": {"vendor": "nvidia", "arch": "blackwell", "product": "b200", "dsl": "triton", "operator_family": "fused-softmax"},
  "generality": {"arch": "blackwell", "language": "triton"},
  "signals": {"metrics": {}, "shape_regime": {"predicate": "*", "var_axes": []}, "symptoms": []},
  "technique_tags": ["row-tiling"],
  "triggers": ["softmax rows fit in one block"]
 },
 "payload": {
  "goal": "Reduce softmax latency by processing one row per program",
  "problem": {"target": "fused softmax", "statement": "Each row was split across programs", "operator": "fused-softmax"},
  "trace": {"builds_on": {"approach": "the untouched baseline kernel"}},
  "change": "Process one row per program",
  "mechanism": "Fewer global memory round trips because the row stays in registers",
  "implementation": {"format": "unified-diff (verbatim; '-' = before this step, '+' = after)", "snippet": "-    y = x + 1\n+    y = x * 2"},
  "cost": {"edit_scope": "one-line", "risk": "low"},
  "next_steps": []
 },
 "evidence": {
  "summary": {"confidence": "measured", "measured_on": {"harness": "the trace bench", "gpu": "B200"}},
  "raw": {"source_repo": "trace-x", "version": "v1", "git_commit": "SHA"}
 },
 "worth": {
  "rank": {"score": 0.5, "tier": "promising"},
  "gain": {"basis": "measured", "kind": "performance", "primary": "latency", "pct": 8.0,
           "metrics": [{"metric": "latency", "direction": "lower-better", "source": "harness", "delta_pct": 8.0}]}
 }
})J";

const char *kPacket = R"J({
 "seg_id": "s01",
 "record_type": "strategy",
 "seg_kind": "milestone",
 "target": {"id": "nvidia.b200.triton.fused-softmax.row-tiling-s01", "schema": "clean-1.3", "level": "operator"},
 "agent_facing": {"measurements": {"geomean_us": 11.5, "improve_pct_vs_best_so_far": 8.0},
                  "diff_file": "s01.diff"},
 "provenance": {"source_repo": "trace-x", "version": "v1", "git_commit": "SHA", "ncu_dirs": ["cap1"]},
 "evidence_chars": 10,
 "code_bytes": 10
})J";

} // namespace

GateFixture::GateFixture() : root(fresh_dir()) {
  auto t = trace().string();
  fs::create_directories(t);
  std::string git = "git -C '" + t + "' -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false ";
  run("git init -q '" + t + "'");
  io::write_file_atomic(trace() / "kernel.py", "def f(x):\n    y = x + 1\n    return y\n");
  run(git + "add kernel.py && " + git + "commit -qm 'v0: baseline'");
  sha_v0 = run(git + "rev-parse HEAD");
  io::write_file_atomic(trace() / "kernel.py", "def f(x):\n    y = x * 2\n    return y\n");
  run(git + "commit -qam 'v1: kept'");
  sha_v1 = run(git + "rev-parse HEAD");
  record = json::parse(kRecord);
  record.find("evidence")->find("raw")->set("git_commit", sha_v1);
  packet = json::parse(kPacket);
  packet.find("provenance")->set("git_commit", sha_v1);
  diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n@@ -1,3 +1,3 @@\n def f(x):\n"
         "-    y = x + 1\n+    y = x * 2\n     return y\n";
}

json::Value GateFixture::anti_record() {
  auto r = json::parse(kRecord);
  r.set("type", "anti-strategy");
  r.set("id", "nvidia.b200.triton.fused-softmax.row-tiling-t01");
  json::Value payload = json::parse(R"J({
   "goal": "Reduce softmax latency by processing one row per program",
   "problem": {"target": "fused softmax", "statement": "Each row was split across programs"},
   "attempted": "Process one row per program",
   "verdict": "not-worth-it-here",
   "lesson": "Row tiling does not help when rows exceed the register file",
   "established_fact": {"condition": {"sm_arch": "sm_100"},
                        "mechanism": "The row no longer fits in registers, so it spills to local memory and every element is read twice"}
  })J");
  r.set("payload", payload);
  r.find("worth")->set("gain", json::parse(R"J({"basis": "measured", "kind": "none"})J"));
  return r;
}

gates::Context GateFixture::write_and_load() {
  fs::remove_all(store());
  fs::remove_all(workspace());
  fs::remove_all(live());
  std::string rel = record_relpath.empty() ? record::record_relpath(record).generic_string() : record_relpath;
  io::write_file_atomic(store() / "records" / rel, json::to_pretty(record));
  json::Value entry = index_entry;
  if (entry.is_null()) {
    entry = json::Value::object();
    entry.set("id", record.get("id"));
    entry.set("retrieval", record.get("retrieval"));
    entry.set("worth_score", record.get("worth").get("rank").get("score"));
    entry.set("tier", record.get("worth").get("rank").get("tier"));
    entry.set("gain_pct", record.get("worth").get("gain").get("pct"));
  }
  json::Value index = json::Value::object();
  index.set("schema", "clean-1.3");
  json::Value list = json::Value::array();
  list.push_back(entry);
  index.set("records", list);
  io::write_file_atomic(store() / "records" / "index.json", json::to_pretty(index));
  io::write_file_atomic(workspace() / "packets" / "s01.json", json::to_pretty(packet));
  if (!diff.empty()) io::write_file_atomic(workspace() / "packets" / "s01.diff", diff);
  io::write_file_atomic(workspace() / "work" / "profiles.jsonl",
                        "{\"dir\": \"cap1\", \"ncu_usable\": true}\n{\"dir\": \"cap2\", \"ncu_usable\": false}\n");
  json::Value live_index = json::Value::object();
  json::Value live_list = json::Value::array();
  for (const auto &id : live_ids) {
    json::Value e = json::Value::object();
    e.set("id", id);
    e.set("episode_key", "blackwell|triton|fused-softmax|other|operator");
    live_list.push_back(e);
  }
  live_index.set("records", live_list);
  io::write_file_atomic(live() / "records" / "index.json", json::to_pretty(live_index));

  gates::Context ctx;
  ctx.store_root = store();
  ctx.records = gates::records_from_store(store());
  ctx.index = gates::load_gate_index(store(), {});
  ctx.store_schema = std::make_shared<const schema::Schema>(json::parse(schema::builtin_store_schema_text()), "b");
  ctx.profile = std::make_shared<const schema::Schema>(json::parse(schema::builtin_profile_text()), "p");
  ctx.workspace = workspace();
  ctx.packets = gates::load_packets(workspace());
  ctx.usable_captures = gates::load_usable_captures(workspace() / "work" / "profiles.jsonl");
  ctx.have_captures = true;
  ctx.trace_repo = trace();
  ctx.trace_label = "trace-x";
  gates::load_live(ctx, live());
  ctx.id_products = gates::target_products(config::Config::defaults());
  return ctx;
}

} // namespace otm::testing
