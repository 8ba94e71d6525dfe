// Runs the built otm-ingest on small traces and checks exit codes, messages
// and outputs of every refusal path.
#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include "trace_fixture.hpp"
#include "json/parse.hpp"

using otm::test::run;
using otm::test::shell_quote;

namespace {

// A clean environment, so RTM_* variables of the caller do not leak in.
std::string ingest_cmd(const std::string &args, const std::string &env = "") {
  return otm::testsupport::clean_env(shell_quote(otm::testsupport::tool_path("otm-ingest")) + " " + args, env);
}

struct Proc {
  otm::test::TempDir tmp;
  std::string ws() const { return shell_quote((tmp.path() / "ws").string()); }
  otm::test::RunResult ingest(const std::string &args) { return run(ingest_cmd(args), tmp.path()); }
};

} // namespace

TEST_CASE("otm-ingest --help says what it reads, writes and refuses", "[process][ingest]") {
  Proc p;
  auto r = p.ingest("--help");
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("Reads") && Catch::Contains("Writes") && Catch::Contains("Refuses to decide") &&
                        Catch::Contains("--non-target-kernels") && Catch::Contains("--output"));
  CHECK(p.ingest("--version").code == 0);
  CHECK(p.ingest("--bogus").code == 2);
}

TEST_CASE("otm-ingest refuses unusable traces with exit 2", "[process][ingest]") {
  Proc p;
  auto none = p.ingest("");
  CHECK(none.code == 2);
  CHECK_THAT(none.err, Catch::Contains("no trace configured"));

  auto missing = p.ingest("--trace " + shell_quote((p.tmp.path() / "nope").string()));
  CHECK(missing.code == 2);
  CHECK_THAT(missing.err, Catch::StartsWith("otm-ingest: ") && Catch::Contains("nope: trace is not a directory"));

  std::filesystem::create_directories(p.tmp.path() / "plain");
  auto plain = p.ingest("--trace " + shell_quote((p.tmp.path() / "plain").string()));
  CHECK(plain.code == 2);
  CHECK_THAT(plain.err, Catch::Contains("no .git"));

  otm::test::GitTrace empty(p.tmp.path() / "empty");
  auto no_commits = p.ingest("--trace " + shell_quote(empty.dir().string()));
  CHECK(no_commits.code == 2);
  CHECK_THAT(no_commits.err, Catch::Contains("no commits"));

  auto name = p.ingest("--trace-name missing-trace");
  CHECK(name.code == 2);
  CHECK_THAT(name.err, Catch::Contains("'missing-trace'") && Catch::Contains("known: example-fused-softmax"));
  CHECK(std::count(name.err.begin(), name.err.end(), '\n') == 1);
}

TEST_CASE("otm-ingest refuses unknown hardware and invalid settings", "[process][ingest]") {
  Proc p;
  otm::test::GitTrace t(p.tmp.path() / "trace");
  t.write("solution.json", R"({"spec": {"target_hardware": ["MI300"]}})");
  t.commit("v0: baseline");
  std::string trace = " --trace " + shell_quote(t.dir().string()) + " --workspace " + p.ws();
  auto r = p.ingest(trace);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("RTM_ARCH") && Catch::Contains("--arch") && Catch::Contains("MI300") &&
                        Catch::Contains("guessed architecture is refused"));
  CHECK_FALSE(std::filesystem::exists(p.tmp.path() / "ws" / "work" / "meta.json"));

  auto bad_arch = p.ingest(trace + " --arch sm90");
  CHECK(bad_arch.code == 2);
  CHECK_THAT(bad_arch.err, Catch::Contains("RTM_ARCH / --arch is 'sm90'"));
  auto env_vendor = run(ingest_cmd(trace, "RTM_VENDOR=Nvidia RTM_ARCH=hopper"), p.tmp.path());
  CHECK(env_vendor.code == 2);
  CHECK_THAT(env_vendor.err, Catch::Contains("RTM_VENDOR / --vendor is 'Nvidia'"));
  auto env_ok = run(ingest_cmd(trace + " --quiet", "RTM_ARCH=hopper RTM_PRODUCT=h100"), p.tmp.path());
  CHECK(env_ok.code == 0);
  auto bad_vendor = p.ingest(trace + " --arch hopper --vendor Nvidia");
  CHECK(bad_vendor.code == 2);
  CHECK_THAT(bad_vendor.err, Catch::Contains("RTM_VENDOR / --vendor is 'Nvidia'"));
  auto ok = p.ingest(trace + " --arch cdna3 --quiet");
  CHECK(ok.code == 0);
  CHECK(ok.err.empty());
  auto meta = otm::json::parse_file(p.tmp.path() / "ws" / "work" / "meta.json");
  CHECK(meta.get("meta").string_or("vendor") == "amd");
}

TEST_CASE("otm-ingest reports malformed memory files and keeps going", "[process][ingest]") {
  Proc p;
  otm::test::GitTrace t(p.tmp.path() / "trace");
  t.write("solution.json", R"({"spec": {"target_hardware": "B200"}})");
  t.write("kernel.py", "import triton\n");
  t.write("memory/v0.json", R"({"performance": {"latency_us_geomean": 10.0}})");
  t.write("memory/v1.json", "[]");
  t.write("memory/v2.json", "{\"performance\": \"\xfe\"}");
  t.write("memory/v3.json", R"({"performance": {"latency_us_geomean": "fast", "latency_us_by_shape": [1]}})");
  t.write("memory/v4.json", "{oops");
  t.commit("v0: baseline");
  t.commit("v1: reverted - tried x");
  auto r = p.ingest("--trace " + shell_quote(t.dir().string()) + " --workspace " + p.ws() + " -o -");
  REQUIRE(r.code == 0);
  auto rows = otm::json::parse_lines(r.out, "<stdout>");
  REQUIRE(rows.size() == 3); // v0, v1 (commit only), v3 (read with defaults)
  CHECK(rows[2].string_or("version") == "v3");
  CHECK(rows[2].get("geomean_us").is_null());
  CHECK_FALSE(std::filesystem::exists(p.tmp.path() / "ws" / "work" / "versions.jsonl"));
  auto meta = otm::json::parse_file(p.tmp.path() / "ws" / "work" / "meta.json");
  const auto &variants = meta.get("memory_variants");
  REQUIRE(variants.size() == 4);
  CHECK(variants[0].string_or("why") == "not a JSON object (a list)");
  CHECK(variants[1].string_or("why") == "invalid UTF-8");
  CHECK_THAT(variants[2].string_or("why"), Catch::Contains("latency_us_geomean is a string"));
  CHECK(variants[3].string_or("why") == "unparseable");
  CHECK_THAT(r.err, Catch::Contains("filtered:   4 step-record files") && Catch::Contains("1 reverted, 1 kept"));
}
