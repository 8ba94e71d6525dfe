#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sys/wait.h>

#include "config/config.hpp"
#include "distill/agent_driver.hpp"
#include "distill/drafter.hpp"
#include "distill/gates_for_trace.hpp"
#include "distill_test_support.hpp"
#include "gates/context.hpp"
#include "io/file.hpp"
#include "process.hpp"
#include "record/store_layout.hpp"
#include "schema/builtin_schemas.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

std::string run(const std::string &cmd) { return testsupport::sh_out(cmd); }

// A trace with one commit, a workspace holding the fixture packets re-pointed
// at that commit, a capture list and an empty live store.
struct TraceFixture {
  fs::path dir, trace, workspace, staging, live;
  std::string sha, label = "kernel_opt_001_example_fused_softmax_h4096";
  TraceFixture() {
    dir = testsupport::fresh_dir("distill-gates");
    trace = dir / label;
    fs::create_directories(trace);
    io::write_file_atomic(trace / "kernel.py", "x = 1\n");
    run("cd '" + trace.string() + "' && git init -q . && git add kernel.py && git -c user.name=t -c " +
        "user.email=t@example.com commit -qm 'v1: baseline' && git rev-parse HEAD");
    sha = run("cd '" + trace.string() + "' && git rev-parse HEAD");
    workspace = dir / "ws";
    testsupport::copy_fixture_packets(workspace / "packets");
    for (const auto &f : io::list_dir(workspace / "packets")) {
      if (f.extension() != ".json") continue;
      auto doc = json::parse_file(f);
      json::Value prov = doc.get("provenance");
      prov.set("git_commit", sha);
      doc.set("provenance", prov);
      io::write_file_atomic(f, json::to_pretty(doc));
    }
    io::write_file_atomic(workspace / "work" / "profiles.jsonl", "{\"dir\": \"v3_ncu\", \"ncu_usable\": true}\n");
    staging = dir / "staging";
    live = dir / "live";
    fs::create_directories(live / "records");
  }
  ~TraceFixture() { fs::remove_all(dir); }
  distill::TraceGates gates() const {
    distill::TraceGateInputs in;
    in.store_root = staging;
    in.trace_repo = trace;
    in.trace_label = label;
    in.live_root = live;
    in.store_schema = schema::store_schema();
    in.profile = schema::profile_schema();
    in.id_products = gates::target_products(config::Config::defaults());
    return distill::TraceGates(in);
  }
  std::vector<fs::path> packets() const {
    std::vector<fs::path> out;
    for (const auto &f : io::list_dir(workspace / "packets"))
      if (f.extension() == ".json") out.push_back(f);
    return out;
  }
};

std::string describe(const std::vector<distill::GateFinding> &fs) {
  std::string s;
  for (const auto &f : fs) s += "[" + f.gate + "] " + f.message + "\n";
  return s;
}

} // namespace

TEST_CASE("every record otm-draft writes passes the per-record gates", "[distill][gates]") {
  TraceFixture t;
  auto gates = t.gates();
  std::size_t passed = 0;
  for (const auto &f : t.packets()) {
    auto p = distill::load_packet(f);
    auto d = distill::draft_record(p);
    if (!d.record) continue;
    auto rel = (fs::path("records") / record::record_relpath(*d.record)).generic_string();
    auto findings = gates.check(*d.record, rel, p);
    INFO(f.filename().string() << "\n" << describe(findings));
    CHECK(findings.empty());
    if (findings.empty()) ++passed;
  }
  CHECK(passed == 4);
}

TEST_CASE("the gate runner really runs the gates", "[distill][gates]") {
  TraceFixture t;
  auto gates = t.gates();
  auto p = distill::load_packet(t.workspace / "packets" / "strategy-v3.json");
  auto rec = *distill::draft_record(p).record;
  auto rel = (fs::path("records") / record::record_relpath(rec)).generic_string();
  auto has_gate = [](const std::vector<distill::GateFinding> &fs, const std::string &g) {
    return std::any_of(fs.begin(), fs.end(), [&](const auto &f) { return f.gate == g; });
  };
  json::Value payload = rec.get("payload");
  payload.set("mechanism", "87.6543% of the traffic vanished");
  auto fabricated = rec;
  fabricated.set("payload", payload);
  CHECK(has_gate(gates.check(fabricated, rel, p), "no-fabrication"));
  auto bad_commit = rec;
  json::Value ev = rec.get("evidence");
  json::Value raw = ev.get("raw");
  raw.set("git_commit", std::string(40, '0'));
  ev.set("raw", raw);
  bad_commit.set("evidence", ev);
  CHECK(has_gate(gates.check(bad_commit, rel, p), "provenance"));
  // The record is checked where it will be filed.
  CHECK(has_gate(
      gates.check(rec, "records/strategy/nvidia/hopper/triton/fused-softmax/" + rec.string_or("id") + ".json", p),
      "layout"));
  CHECK(has_gate(gates.check(rec, "records/strategy/nvidia/blackwell/triton/fused-softmax/other.json", p), "ids"));
}

TEST_CASE("otm-distill with otm-draft as the agent stages otm-draft's records through the real gates",
          "[distill][gates]") {
  ::setenv("OTM_BIN_DIR", otm::testing::bin_dir().c_str(), 1);
  TraceFixture t;
  auto gates = t.gates();
  distill::DriverOptions o;
  o.agent_cmd = (testsupport::fake_agents() / "draft.sh").string();
  o.jobs = 2;
  o.limits.timeout = std::chrono::seconds(120); // never reached by a working agent, loaded or sanitized
  o.brief = "brief\n";
  auto outcomes = distill::distill_packets(t.packets(), o, gates);
  std::size_t written = 0;
  for (const auto &out : outcomes) {
    INFO(out.seg_id << " " << out.verdict << " " << describe(out.last_findings));
    CHECK((out.verdict == "written" || out.verdict == "refused"));
    if (out.verdict == "written") {
      ++written;
      CHECK(out.rounds == 1);
      auto d = distill::draft_record(distill::load_packet(out.packet));
      REQUIRE(d.record);
      CHECK(json::to_pretty(*out.record) == json::to_pretty(*d.record));
    }
  }
  CHECK(written == 4);
  o.agent_cmd = (testsupport::fake_agents() / "fabricate-then-fix.sh").string();
  auto fixed = distill::distill_packets({t.workspace / "packets" / "strategy-v3.json"}, o, gates);
  CHECK(fixed[0].verdict == "written");
  CHECK(fixed[0].rounds == 2);
  CHECK(fixed[0].blocked_by == std::vector<std::string>{"no-fabrication"});
}

namespace {

int shell(const std::string &cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::map<std::string, std::string> store_files(const fs::path &root) {
  std::map<std::string, std::string> out;
  for (const auto &e : fs::recursive_directory_iterator(root / "records"))
    if (e.is_regular_file()) out[fs::relative(e.path(), root).generic_string()] = io::read_file(e.path());
  return out;
}

} // namespace

TEST_CASE("otm-distill and otm-draft write the same staging records", "[distill][tools]") {
  TraceFixture t;
  std::string bin = otm::testing::bin_dir();
  auto draft_store = t.dir / "draft-staging";
  std::string env = "OTM_BIN_DIR='" + bin + "' RTM_TRACE='" + t.trace.string() + "' RTM_LIVE='" + t.live.string() +
                    "' RTM_STORE='" + t.staging.string() + "' ";
  REQUIRE(shell(env + "'" + bin + "/otm-draft' --store '" + draft_store.string() + "' --slug demo '" +
                (t.workspace / "packets").string() + "' > '" + (t.dir / "draft.out").string() + "' 2>/dev/null") == 0);
  // Staging without the trace or the live store cannot gate: cannot run.
  CHECK(shell("env -u RTM_TRACE -u RTM_TRACE_NAME RTM_LIVE='" + t.live.string() + "' '" + bin +
              "/otm-draft' --store '" + (t.dir / "x").string() + "' '" + (t.workspace / "packets").string() +
              "' > /dev/null 2>&1") == 2);
  REQUIRE(shell(env + "'" + bin + "/otm-distill' -j 2 --slug demo --agent-cmd '" +
                (testsupport::fake_agents() / "draft.sh").string() + "' '" + (t.workspace / "packets").string() +
                "' > '" + (t.dir / "distill.out").string() + "' 2>/dev/null") == 0);
  auto a = store_files(draft_store), b = store_files(t.staging);
  CHECK(a.size() == 4);
  CHECK(a == b);
  // Both keep the same refusals, one ledger line per refused packet.
  auto la = json::parse_lines_file(draft_store / "reports/demo/refusals.jsonl");
  auto lb = json::parse_lines_file(t.staging / "reports/demo/refusals.jsonl");
  REQUIRE(la.size() == 3);
  REQUIRE(lb.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(la[i].get("refused") == lb[i].get("refused"));
  auto log = json::parse_lines_file(t.staging / "reports/demo/distill-log.jsonl");
  CHECK(log.size() == 7);

  // An agent that answers on no packet at all: the run could not be made
  // (exit 2), but it completes and logs the packet, and the ledger says why.
  CHECK(shell(env + "'" + bin + "/otm-distill' --timeout 1 --slug demo --agent-cmd '" +
              (testsupport::fake_agents() / "hang.sh").string() + "' '" +
              (t.workspace / "packets" / "strategy-v3.json").string() + "' > /dev/null 2>&1") == 2);
  log = json::parse_lines_file(t.staging / "reports/demo/distill-log.jsonl");
  REQUIRE(log.size() == 8);
  CHECK(log.back().string_or("verdict") == "timeout");
  auto ledger = json::parse_lines_file(t.staging / "reports/demo/refusals.jsonl");
  auto timed_out = std::find_if(ledger.begin(), ledger.end(),
                                [](const json::Value &l) { return l.string_or("seg_id") == "strategy-v3"; });
  REQUIRE(timed_out != ledger.end());
  CHECK_THAT(timed_out->string_or("why"), Catch::Contains("timed out"));
  CHECK(timed_out->string_or("by") == "otm-distill");
  // One packet whose record the gates keep refusing, among good ones: the
  // others are staged, the run succeeds, the ledger names the gate.
  auto broken_store = t.dir / "broken-staging";
  CHECK(shell(env + "BREAK_SEG=strategy-v3 '" + bin + "/otm-distill' --max-rounds 2 --slug demo --store '" +
              broken_store.string() + "' --agent-cmd '" + (testsupport::fake_agents() / "break-one.sh").string() +
              "' '" + (t.workspace / "packets").string() + "' > /dev/null 2>&1") == 0);
  ledger = json::parse_lines_file(broken_store / "reports/demo/refusals.jsonl");
  auto broken = std::find_if(ledger.begin(), ledger.end(),
                             [](const json::Value &l) { return l.string_or("seg_id") == "strategy-v3"; });
  REQUIRE(broken != ledger.end());
  CHECK(broken->string_or("gate") == "no-fabrication");
  CHECK(broken->string_or("refused") == "payload.goal");
  CHECK(ledger.size() == 4); // the three the drafter refuses, and the broken one
  CHECK(store_files(broken_store).size() == 3);
  // No trace: cannot run.
  CHECK(shell("env -u RTM_TRACE -u RTM_TRACE_NAME '" + bin + "/otm-distill' --agent-cmd true '" +
              (t.workspace / "packets").string() + "' > /dev/null 2>&1") == 2);
}
