// Process-level tests of otm-ladder: exit codes, streams, atomic -o output.
#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "io/file.hpp"
#include "ladder/self_test.hpp"
#include "process.hpp"
#include "scratch.hpp"
#include "json/write.hpp"

namespace fs = std::filesystem;
using namespace otm;

namespace {

struct Run {
  int rc;
  std::string out, err;
};

fs::path fresh_dir(const std::string &name) { return otm::testsupport::fresh_temp_dir("ladder-tool-" + name); }

Run run(const fs::path &dir, const std::string &args) {
  auto r = otm::testsupport::run_in(dir, otm::testsupport::shell_quote(otm::testsupport::tool_path("otm-ladder")) +
                                             " " + args);
  return {r.code, std::move(r.out), std::move(r.err)};
}

std::string self_test_jsonl() {
  std::string s;
  for (const auto &r : ladder::self_test_rows()) s += json::to_line(r) + "\n";
  return s;
}

} // namespace

TEST_CASE("otm-ladder --self-test passes and states the thresholds", "[ladder][tool]") {
  auto d = fresh_dir("self");
  auto r = run(d, "--self-test");
  CHECK(r.rc == 0);
  CHECK(r.out.find("10 passed, 0 failed") != std::string::npos);
  CHECK(r.out.find("milestone >= 1.5%") != std::string::npos);
  io::write_file_atomic(d / "o.json", R"({"ladder": {"milestone_pct": 4.0}})");
  r = run(d, "--self-test --config o.json");
  CHECK(r.rc == 1);
  CHECK(r.out.find("FAIL") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("otm-ladder --help says what it reads, writes and refuses", "[ladder][tool]") {
  auto d = fresh_dir("help");
  auto r = run(d, "--help");
  CHECK(r.rc == 0);
  CHECK(r.out.find("versions.jsonl") != std::string::npos);
  CHECK(r.out.find("Refuses to decide") != std::string::npos);
  CHECK(r.out.find("Exit status") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("otm-ladder annotates rows from a file, stdin or to -o", "[ladder][tool]") {
  auto d = fresh_dir("rows");
  io::write_file_atomic(d / "versions.jsonl", self_test_jsonl());
  auto a = run(d, "versions.jsonl --summary");
  REQUIRE(a.rc == 0);
  CHECK(a.err.find("dead-ends: v8") != std::string::npos);
  CHECK(a.err.find("under 1.5%:") != std::string::npos);
  auto b = run(d, "- < versions.jsonl");
  REQUIRE(b.rc == 0);
  CHECK(b.out == a.out);
  CHECK(b.err.empty()); // stderr is not a terminal here
  auto c = run(d, "-o sub/ladder.jsonl < versions.jsonl");
  REQUIRE(c.rc == 0);
  CHECK(c.out.empty());
  CHECK(io::read_file(d / "sub" / "ladder.jsonl") == a.out);
  CHECK(a.out.find("\"selection\": \"mega\"") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("otm-ladder refuses malformed input naming file and line", "[ladder][tool]") {
  auto d = fresh_dir("bad");
  io::write_file_atomic(d / "bad.jsonl", "{\"version\": \"v1\", \"geomean_us\": 1.0}\n{\"version\": 3}\n");
  io::write_file_atomic(d / "out.jsonl", "previous\n");
  auto r = run(d, "bad.jsonl -o out.jsonl");
  CHECK(r.rc == 2);
  CHECK(r.err.find("bad.jsonl:2") != std::string::npos);
  CHECK(io::read_file(d / "out.jsonl") == "previous\n"); // nothing half-written
  r = run(d, "missing.jsonl");
  CHECK(r.rc == 2);
  CHECK(r.err.find("missing.jsonl") != std::string::npos);
  r = run(d, "a b");
  CHECK(r.rc == 2);
  fs::remove_all(d);
}
