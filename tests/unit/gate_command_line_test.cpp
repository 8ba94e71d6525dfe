// otm-wiki-gate's command line in process (admission/gate_command_line.hpp):
// which request its positionals and options make, what it refuses, and that
// the request runs the command it names.
#include <catch2/catch.hpp>

#include <memory>

#include "admission/gate_command_line.hpp"
#include "admission_fixtures.hpp"
#include "error_kind.hpp"
#include "tool/tool_setup.hpp"

using namespace otm;
using namespace otm::testing;
using Command = admission::GateRequest::Command;

namespace {

std::unique_ptr<cli::Options> parsed(std::vector<std::string> args) {
  auto opts = std::make_unique<cli::Options>("otm-wiki-gate", "usage: test");
  admission::add_gate_options(*opts);
  args.insert(args.begin(), "otm-wiki-gate");
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(a.data());
  REQUIRE(opts->parse(static_cast<int>(argv.size()), argv.data()));
  return opts;
}

admission::GateRequest request(const std::vector<std::string> &args) { return admission::gate_request(*parsed(args)); }

// The request run as otm-wiki-gate runs it: the settings and configuration
// of its options (the environment's RTM_LIVE is not consulted: --live is given).
admission::GateReport run_gate(const std::vector<std::string> &args) {
  auto opts = parsed(args);
  auto setup = tool::tool_setup(*opts);
  return admission::run_gate_request(admission::gate_request(*opts), setup.settings, setup.config);
}

} // namespace

TEST_CASE("wiki-gate command line: match, commit and compact requests", "[admission][cli]") {
  auto match = request({"match", "rec.json", "--schema", "s.json"});
  CHECK(match.command == Command::Match);
  CHECK(match.sources == std::vector<std::string>{"rec.json"});
  CHECK(match.schema == std::optional<std::string>("s.json"));
  CHECK_FALSE(match.target);
  auto confirm = request({"commit", "confirm", "rec.json", "--target", "some.id"});
  CHECK(confirm.command == Command::Commit);
  CHECK(confirm.action == "confirm");
  CHECK(confirm.sources == std::vector<std::string>{"rec.json"});
  CHECK(confirm.target == std::optional<std::string>("some.id"));
  auto batch = request({"commit", "auto", "a.json", "staging", "-"});
  CHECK(batch.action == "auto");
  CHECK(batch.sources == std::vector<std::string>{"a.json", "staging", "-"});
  auto compact = request({"compact", "--live", "/tmp/x"});
  CHECK(compact.command == Command::Compact);
  CHECK(compact.sources.empty());
}

TEST_CASE("wiki-gate command line: what is no command is a usage error", "[admission][cli]") {
  for (const std::vector<std::string> &args : {std::vector<std::string>{},
                                               {"match"},
                                               {"match", "a", "b"},
                                               {"commit", "insert"},
                                               {"compact", "x"},
                                               {"insert", "a.json"},
                                               {"match", "rec.json", "--target", "x"},
                                               {"compact", "--target", "x"}}) {
    INFO(args.size() << " arguments, the first '" << (args.empty() ? "" : args[0]) << "'");
    CHECK_THROWS_MATCHES(request(args), Error, test::of_kind(ErrorKind::Usage));
  }
  CHECK_THROWS_WITH(request({"match", "rec.json", "--target", "x"}), "match takes no --target");
  CHECK_THROWS_WITH(request({"frob"}), Catch::Contains("expected 'match RECORD'"));
  // The action is the commit's to judge (run_commit refuses an unknown one).
  CHECK(request({"commit", "frob", "a.json"}).action == "frob");
}

TEST_CASE("wiki-gate command line: one record file is one commit, a staging store a batch", "[admission][cli]") {
  TempDir tmp;
  fs::path live = tmp.path / "live";
  seed_live_store(live, 2);
  fs::path one = stage(tmp.path / "one", strategy_record("nvidia.b200.triton.toy-op.wide-loads-s01"));
  auto single = run_gate({"commit", "insert", one.string(), "--live", live.string()});
  CHECK(single.exit_code == 0);
  CHECK_THAT(single.out, Catch::Contains("inserted \u2192 records/") && !Catch::Contains("batch:"));
  // A directory holding records/ is a batch: each line prefixed with its
  // source, the last one counting.
  fs::path staging = tmp.path / "staging";
  auto rec = strategy_record("nvidia.b200.triton.toy-op.wide-loads-s02", "blackwell|triton|toy-op|other|operator");
  io::write_file_atomic(staging / "records" / record::record_relpath(rec), json::to_pretty(rec));
  auto batch = run_gate({"commit", "insert", staging.string(), "--live", live.string()});
  CHECK(batch.exit_code == 0);
  CHECK_THAT(batch.out, Catch::Contains("batch: 1 records offered, 1 inserted, 0 confirmed"));
  CHECK(store_disagreements(live).empty());
  auto compact = run_gate({"compact", "--live", live.string()});
  CHECK(compact.exit_code == 0);
}
