// Golden files: otm-ladder's output on the example trace's versions.jsonl
// (testdata/golden/example/). Regenerate with OTM_UPDATE_GOLDEN=1 after
// reviewing the change (testdata/README.md).
#include <catch2/catch.hpp>

#include "example_trace.hpp"
#include "io/file.hpp"

using namespace otm;
using otm::testing::bin;
using otm::testing::check_golden;
using otm::testing::golden_path;
namespace fs = std::filesystem;

TEST_CASE("otm-ladder output on the example trace matches its golden file", "[golden][ladder]") {
  auto dir = otm::testing::fresh_temp_dir("golden-ladder");
  fs::path input = golden_path("example/versions.jsonl");
  REQUIRE(io::is_regular_file(input));
  auto r = otm::testing::run_in(dir, bin("otm-ladder") + " '" + input.string() + "' -o ladder.jsonl --summary");
  REQUIRE(r.rc == 0);
  std::string ladder = io::read_file(dir / "ladder.jsonl");
  CHECK(check_golden("example/ladder.jsonl", ladder) == "");
  CHECK(check_golden("example/ladder-summary.txt", r.err) == "");
  // The story of testdata/README.md, checked independently of the golden
  // bytes so a regenerated golden cannot silently change it.
  for (const char *expect : {
           "\"version\": \"v3\", ",
           "\"selection\": \"mega\"",
           "\"reason\": \"declares no change (14.96%)\"",
           "\"reason\": \"unexplained win (8x better than best-so-far, not claimed by its text)\"",
           "\"reason\": \"harness re-baselining (7x worse)\"",
           "\"selection\": \"final\", \"reason\": \"under 1.5% (0.44%)\"",
       })
    CHECK(ladder.find(expect) != std::string::npos);
  CHECK(r.err.find("dead-ends: v4 v8 v15 v24") != std::string::npos);
  CHECK(r.err.find("v28   final") != std::string::npos);
  fs::remove_all(dir);
}
