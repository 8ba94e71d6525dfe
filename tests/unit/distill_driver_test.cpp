#include <catch2/catch.hpp>

#include <chrono>

#include "distill/agent_driver.hpp"
#include "distill/agent_process.hpp"
#include "distill/drafter.hpp"
#include "distill/staging.hpp"
#include "distill_test_support.hpp"
#include "io/file.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

using testsupport::InjectedNumberGateDouble;

// An agent that answers gets a deadline no loaded machine or sanitizer build
// reaches (the agents run otm tools); only the hanging agent is timed out.
constexpr auto answering_deadline = std::chrono::seconds(120);
constexpr auto hanging_deadline = std::chrono::milliseconds(2000);

distill::DriverOptions options_for(const std::string &agent, unsigned rounds = 3,
                                   std::chrono::milliseconds deadline = answering_deadline) {
  distill::DriverOptions o;
  o.agent_cmd = (testsupport::fake_agents() / agent).string();
  o.jobs = 2;
  o.max_rounds = rounds;
  o.limits.timeout = deadline;
  o.brief = "test brief\n";
  return o;
}

std::vector<fs::path> packets_in(const fs::path &dir, const std::vector<std::string> &segs) {
  std::vector<fs::path> out;
  for (const auto &s : segs) out.push_back(dir / (s + ".json"));
  return out;
}

struct Env {
  Env() { ::setenv("OTM_BIN_DIR", OTM_BIN_DIR, 1); }
};

} // namespace

TEST_CASE("an agent that returns good records gets them staged in one round", "[distill][driver]") {
  Env env;
  auto dir = testsupport::fresh_dir("driver-good");
  auto packets = testsupport::copy_fixture_packets(dir / "packets");
  InjectedNumberGateDouble gates;
  auto outcomes = distill::distill_packets(packets_in(packets, {"strategy-v3", "refk-final", "anti-v6-01"}),
                                           options_for("good-stdin.sh"), gates);
  REQUIRE(outcomes.size() == 3);
  CHECK(outcomes[0].verdict == "written");
  CHECK(outcomes[0].rounds == 1);
  CHECK(outcomes[1].verdict == "written");
  CHECK(outcomes[2].verdict == "refused");
  CHECK(outcomes[2].thin == std::vector<std::string>{"payload.established_fact.mechanism"});
  workspace::StagingStore store{dir / "staging"};
  auto log = distill::distill_log_path(store, "demo");
  auto lines = distill::commit_outcomes(outcomes, store, "demo", log);
  CHECK(io::is_regular_file(store.root / outcomes[0].relpath));
  auto logged = json::parse_lines_file(log);
  REQUIRE(logged.size() == 3);
  CHECK(logged[0].string_or("verdict") == "written");
  CHECK(logged[0].get("rounds") == json::Value(1));
  CHECK(logged[2].string_or("verdict") == "refused");
  auto ledger = json::parse_lines_file(distill::refusal_ledger_path(store, "demo"));
  REQUIRE(ledger.size() == 1);
  CHECK(ledger[0].string_or("by") == "agent");
  fs::remove_all(dir);
}

TEST_CASE("an agent that fabricates a number fixes it when shown the finding", "[distill][driver]") {
  Env env;
  auto dir = testsupport::fresh_dir("driver-fix");
  auto packets = testsupport::copy_fixture_packets(dir / "packets");
  InjectedNumberGateDouble gates;
  auto outcomes =
      distill::distill_packets(packets_in(packets, {"strategy-v3"}), options_for("fabricate-then-fix.sh"), gates);
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].verdict == "written");
  CHECK(outcomes[0].rounds == 2);
  CHECK(outcomes[0].blocked_by == std::vector<std::string>{"no-fabrication"});
  REQUIRE(outcomes[0].record);
  CHECK(json::to_line(*outcomes[0].record).find("87.6543") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("an agent that never fixes its record writes nothing", "[distill][driver]") {
  Env env;
  auto dir = testsupport::fresh_dir("driver-never");
  auto packets = testsupport::copy_fixture_packets(dir / "packets");
  InjectedNumberGateDouble gates;
  auto outcomes = distill::distill_packets(packets_in(packets, {"strategy-v3"}), options_for("never-fix.sh", 3), gates);
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].verdict == "rejected");
  CHECK(outcomes[0].rounds == 3);
  CHECK_FALSE(outcomes[0].record);
  REQUIRE(outcomes[0].last_findings.size() == 1);
  CHECK(outcomes[0].last_findings[0].gate == "no-fabrication");
  workspace::StagingStore store{dir / "staging"};
  distill::commit_outcomes(outcomes, store, "demo", distill::distill_log_path(store, "demo"));
  CHECK_FALSE(io::is_directory(store.records_dir()));
  fs::remove_all(dir);
}

TEST_CASE("hanging, crashing and babbling agents fail their packet, not the run", "[distill][driver]") {
  Env env;
  auto dir = testsupport::fresh_dir("driver-bad");
  auto packets = testsupport::copy_fixture_packets(dir / "packets");
  InjectedNumberGateDouble gates;
  auto start = std::chrono::steady_clock::now();
  auto hang = distill::distill_packets(packets_in(packets, {"strategy-v3", "refk-final"}),
                                       options_for("hang.sh", 3, hanging_deadline), gates);
  auto took = std::chrono::steady_clock::now() - start;
  REQUIRE(hang.size() == 2);
  CHECK(hang[0].verdict == "timeout");
  CHECK(hang[1].verdict == "timeout");
  CHECK(hang[0].rounds == 1);
  // Two packets in parallel, each killed at its 2 s deadline.
  CHECK(took < std::chrono::seconds(8));

  auto crash = distill::distill_packets(packets_in(packets, {"strategy-v3"}), options_for("crash.sh"), gates);
  CHECK(crash[0].verdict == "agent-failed");
  CHECK(crash[0].detail.find("exit 3") != std::string::npos);
  CHECK(crash[0].detail.find("unreachable") != std::string::npos);

  auto garbage = distill::distill_packets(packets_in(packets, {"strategy-v3"}), options_for("garbage.sh", 2), gates);
  CHECK(garbage[0].verdict == "garbage");
  CHECK(garbage[0].rounds == 2);
  CHECK(garbage[0].blocked_by == std::vector<std::string>{"output"});

  // A missing packet is that packet's failure too.
  auto missing = distill::distill_packets({packets / "nope.json", packets / "strategy-v3.json"},
                                          options_for("good-stdin.sh"), gates);
  CHECK(missing[0].verdict == "agent-failed");
  CHECK(missing[1].verdict == "written");
  fs::remove_all(dir);
}

TEST_CASE("a record that renames itself or moves is refused by the driver", "[distill][driver]") {
  Env env;
  auto dir = testsupport::fresh_dir("driver-target");
  auto packets = testsupport::copy_fixture_packets(dir / "packets");
  auto script = dir / "rename.sh";
  io::write_file_atomic(script, "#!/bin/sh\n\"$OTM_BIN_DIR/otm-draft\" --stdout \"$OTM_DISTILL_PACKET\" | "
                                "sed 's/single-pass-reload-s01/single-pass-reload-s99/'\n");
  fs::permissions(script, fs::perms::owner_all);
  InjectedNumberGateDouble gates;
  auto o = options_for("good-stdin.sh", 1);
  o.agent_cmd = script.string();
  auto outcomes = distill::distill_packets(packets_in(packets, {"strategy-v3"}), o, gates);
  CHECK(outcomes[0].verdict == "rejected");
  CHECK(outcomes[0].blocked_by == std::vector<std::string>{"target"});
  fs::remove_all(dir);
}

TEST_CASE("driving otm-draft as the agent gives otm-draft's records", "[distill][driver]") {
  Env env;
  auto dir = testsupport::fresh_dir("driver-equiv");
  auto packets = testsupport::copy_fixture_packets(dir / "packets");
  std::vector<fs::path> files;
  for (const auto &f : io::list_dir(packets))
    if (f.extension() == ".json") files.push_back(f);
  InjectedNumberGateDouble gates;
  auto outcomes = distill::distill_packets(files, options_for("draft.sh"), gates);
  REQUIRE(outcomes.size() == files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto d = distill::draft_record(distill::load_packet(files[i]));
    INFO(files[i].filename().string());
    CHECK(outcomes[i].record.has_value() == d.record.has_value());
    if (d.record && outcomes[i].record) CHECK(json::to_pretty(*outcomes[i].record) == json::to_pretty(*d.record));
    if (d.record) CHECK(outcomes[i].thin == d.thin);
    if (d.refusal) CHECK(outcomes[i].thin == std::vector<std::string>{d.refusal->field});
  }
  fs::remove_all(dir);
}

TEST_CASE("the agent input frames brief, packet, code and findings", "[distill][driver]") {
  auto p = distill::load_packet(testsupport::distill_fixtures() / "strategy-v3.json");
  auto first = distill::agent_input("BRIEF", p, {}, 1, 3);
  CHECK(first.starts_with("BRIEF\n"));
  CHECK(first.find("=== PACKET strategy-v3.json ===\n") != std::string::npos);
  CHECK(first.find("=== CODE strategy-v3.diff ===\n" + p.code) != std::string::npos);
  CHECK(first.find("GATE FINDINGS") == std::string::npos);
  CHECK(first.ends_with("=== END ===\n"));
  auto second = distill::agent_input("BRIEF", p, {{"verbatim", "line 3 is not in the diff"}}, 2, 3);
  CHECK(second.find("=== GATE FINDINGS (round 2 of 3) ===") != std::string::npos);
  CHECK(second.find("- [verbatim] line 3 is not in the diff\n") != std::string::npos);
}

TEST_CASE("the agent runner feeds stdin, reads stdout and enforces the deadline", "[distill][driver]") {
  distill::AgentLimits limits;
  limits.timeout = std::chrono::milliseconds(2000);
  std::string big(1 << 20, 'x');
  auto echo = distill::run_agent("wc -c; echo \"$FOO\" >&2", big, {{"FOO", "bar"}}, limits);
  CHECK(echo.ok());
  CHECK(std::string(echo.out.substr(0, echo.out.find('\n'))) == std::to_string(big.size()));
  CHECK(echo.err == "bar\n");
  auto deaf = distill::run_agent("exit 0", big, {}, limits); // never reads stdin
  CHECK(deaf.ok());
  limits.max_stdout = 1000;
  auto flood = distill::run_agent("yes", "", {}, limits);
  CHECK(flood.output_overflow);
  CHECK_FALSE(flood.ok());
  auto sig = distill::run_agent("kill -9 $$", "", {}, limits);
  CHECK(sig.signal == 9);
}
