// The three executables end to end on the synthetic trace: exit codes,
// outputs, stdin/stdout pipes, the pre-flight refusal.
#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include "packets_fixture.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

struct Run {
  int rc;
  std::string out;
};

Run run(const testing::SyntheticTrace &t, const std::string &tool, const std::string &args,
        const std::string &env = "") {
  std::string bin = otm::testing::bin_dir() + "/" + tool;
  std::string cmd = "cd '" + t.root.string() + "' && env -u RTM_TRACE_NAME -u ATREX_WIKI_DENYLIST -u RTM_LIVE " +
                    "RTM_TRACE='" + t.trace.string() + "' RTM_WORKSPACE='" + t.workspace.string() + "' RTM_STORE='" +
                    t.store.string() + "' " + env + " '" + bin + "' " + args + " 2>'" + (t.root / "stderr").string() +
                    "'; echo \"rc=$?\"";
  std::string out = testing::sh(cmd);
  auto pos = out.rfind("rc=");
  return {std::stoi(out.substr(pos + 3)), out.substr(0, pos)};
}

} // namespace

TEST_CASE("otm-recon, otm-partition and otm-packet run as a pipeline", "[packet][process]") {
  testing::SyntheticTrace t("tools");
  auto recon = run(t, "otm-recon", "--quiet");
  REQUIRE(recon.rc == 0);
  auto report = t.store / "reports" / "001-example-fused-softmax-h4096" / "recon.md";
  CHECK(io::read_file(report).find("# Recon: fused_softmax_h4096") == 0);

  auto part = run(t, "otm-partition", "--quiet");
  REQUIRE(part.rc == 0);
  auto segments = json::parse_lines_file(t.workspace / "work" / "segments.jsonl");
  CHECK(segments.size() == 11);
  CHECK(fs::exists(t.store / "reports" / "001-example-fused-softmax-h4096" / "partition.md"));
  // stdin and stdout: the same segments.
  auto piped =
      run(t, "otm-partition", "--quiet --ladder - -o - < '" + (t.workspace / "work" / "ladder.jsonl").string() + "'");
  REQUIRE(piped.rc == 0);
  CHECK(piped.out == io::read_file(t.workspace / "work" / "segments.jsonl"));

  auto pk = run(t, "otm-packet", "--quiet");
  REQUIRE(pk.rc == 0);
  auto lines = json::parse_lines(pk.out);
  REQUIRE(lines.size() == 11);
  for (const auto &l : lines) CHECK(fs::exists(l.string_or("packet")));
  auto only = run(t, "otm-packet", "--quiet --seg refk-final --seg strategy-v3");
  REQUIRE(only.rc == 0);
  CHECK(json::parse_lines(only.out).size() == 2);

  // Correctness status is copied verbatim (not prose): a path planted there
  // reaches the agent-facing layer, and the pre-flight refuses, naming it.
  auto versions = io::read_file(t.workspace / "work" / "versions.jsonl");
  auto at = versions.find("\"PASS\"");
  REQUIRE(at != std::string::npos);
  versions.replace(at, 6, "\"FAIL, see /home/bob/log\"");
  io::write_file_atomic(t.workspace / "work" / "versions.jsonl", versions);
  auto leak = run(t, "otm-packet", "--quiet");
  CHECK(leak.rc == 1);
  CHECK(json::parse_lines(leak.out).size() == 11); // all written
  std::string err = io::read_file(t.root / "stderr");
  CHECK(err.find("strategy-v1: [absolute path] /home/bob/log") != std::string::npos);

  auto bad = run(t, "otm-packet", "--limit x");
  CHECK(bad.rc == 2);
  auto missing = run(t, "otm-packet", "--segments nowhere.jsonl");
  CHECK(missing.rc == 2);
}

TEST_CASE("otm-scrub runs the self-test and scrubs stdin", "[scrub][process]") {
  testing::SyntheticTrace t("scrub-tool");
  CHECK(run(t, "otm-scrub", "--self-test").rc == 0);
  testing::write(t.root / "in.txt", "v83: see /home/x/y.md and 3f2a91bc\n");
  auto r = run(t, "otm-scrub", "in.txt");
  CHECK(r.rc == 0);
  CHECK(r.out == "see a local path and shape-1\n");
  testing::write(t.root / "deny.txt", "secret-proj\n");
  testing::write(t.root / "in2.txt", "built for Secret-Proj");
  auto e = run(t, "otm-scrub", "- < in2.txt", "ATREX_WIKI_DENYLIST='" + (t.root / "deny.txt").string() + "'");
  CHECK(e.rc == 0);
  CHECK(e.out == "built for a private identifier\n");
}
