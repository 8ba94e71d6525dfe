// Golden files: otm-ingest's work/ outputs and otm-ladder's selection on the
// example trace and its degraded variants (testdata/golden/). Regenerate
// with OTM_UPDATE_GOLDEN=1 after reviewing the change (testdata/README.md).
#include <catch2/catch.hpp>

#include "example_trace.hpp"
#include "io/file.hpp"

using namespace otm;
using otm::testing::bin;
using otm::testing::check_golden;
namespace fs = std::filesystem;

namespace {

// Ingest must see only what the test says: no RTM_* setting, configuration
// override or denylist leaks in from the environment running the tests.
const char *kCleanEnv = "env -u RTM_TRACE -u RTM_TRACE_NAME -u RTM_TRACE_ROOT -u RTM_TRACE_LABEL -u RTM_WORKSPACE "
                        "-u RTM_STORE -u RTM_LIVE -u RTM_VENDOR -u RTM_ARCH -u RTM_PRODUCT -u RTM_DSL -u RTM_HARNESS "
                        "-u RTM_NON_TARGET_KERNELS -u ATREX_WIKI_DENYLIST -u OTM_CONFIG ";

otm::testing::ProcessResult ingest(const fs::path &dir, const fs::path &trace, const std::string &extra = "") {
  return otm::testing::run_in(dir, std::string(kCleanEnv) + bin("otm-ingest") + " --trace '" + trace.string() +
                                       "' --workspace ws --quiet " + extra);
}

// Runs ingest and the ladder on one variant and compares all four outputs.
void check_variant(const std::string &variant, const std::string &golden_dir, const std::string &extra = "") {
  auto dir = otm::testing::fresh_temp_dir("golden-ingest");
  auto trace = otm::testing::make_example_trace(dir / "t", variant);
  auto r = ingest(dir, trace, extra);
  INFO(r.err);
  REQUIRE(r.rc == 0);
  fs::path work = dir / "ws" / "work";
  for (const char *f : {"versions.jsonl", "profiles.jsonl", "meta.json"}) {
    INFO(f);
    CHECK(check_golden(golden_dir + "/" + f, io::read_file(work / f)) == "");
  }
  auto l = otm::testing::run_in(dir, bin("otm-ladder") + " ws/work/versions.jsonl -o ladder.jsonl");
  REQUIRE(l.rc == 0);
  CHECK(check_golden(golden_dir + "/ladder.jsonl", io::read_file(dir / "ladder.jsonl")) == "");
  fs::remove_all(dir);
}

} // namespace

TEST_CASE("otm-ingest and otm-ladder on the example trace match their golden files", "[golden][ingest]") {
  check_variant("", "example");
}

TEST_CASE("the no-memory variant: no geomean, no milestone, dead-ends survive", "[golden][ingest]") {
  check_variant("no-memory", "example-no-memory");
  std::string ladder = io::read_file(otm::testing::golden_path("example-no-memory/ladder.jsonl"));
  CHECK(ladder.find("\"selection\": \"baseline\"") == std::string::npos);
  CHECK(ladder.find("\"selection\": \"deadend\"") != std::string::npos);
}

TEST_CASE("the no-profiles variant matches its golden files", "[golden][ingest]") {
  check_variant("no-profiles", "example-no-profiles");
  CHECK(io::read_file(otm::testing::golden_path("example-no-profiles/profiles.jsonl")).empty());
}

TEST_CASE("the no-hardware variant is refused unless the target is given", "[golden][ingest]") {
  auto dir = otm::testing::fresh_temp_dir("golden-nohw");
  auto trace = otm::testing::make_example_trace(dir / "t", "no-hardware");
  auto r = ingest(dir, trace);
  CHECK(r.rc == 2);
  CHECK_FALSE(fs::exists(dir / "ws" / "work" / "versions.jsonl"));
  fs::remove_all(dir);
  check_variant("no-hardware", "example-no-hardware", "--vendor nvidia --arch blackwell --product b200");
}
