// The bundled example trace (testdata/example-trace, scripts/make-example-trace):
// deterministic, and holding every situation testdata/README.md promises.
#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <set>

#include "example_trace.hpp"
#include "git/repository.hpp"
#include "io/file.hpp"
#include "text/regex.hpp"
#include "json/parse.hpp"

using namespace otm;
using otm::testing::fresh_temp_dir;
using otm::testing::make_example_trace;
namespace fs = std::filesystem;

namespace {
std::string all_messages(const git::Repository &repo) {
  std::string s;
  for (const auto &c : repo.commits_oldest_first()) s += c.subject + "\n" + c.body + "\n";
  return s;
}
} // namespace

TEST_CASE("the example trace has the same commit ids on every generation", "[example-trace]") {
  auto a = fresh_temp_dir("trace-a"), b = fresh_temp_dir("trace-b");
  auto ta = make_example_trace(a), tb = make_example_trace(b);
  CHECK(ta.filename() == "kernel_opt_001_example_fused_softmax_h4096");
  auto ha = git::Repository::open(ta).head(), hb = git::Repository::open(tb).head();
  REQUIRE(ha);
  CHECK(ha == hb);
  // Regenerating into an existing directory is refused rather than mixed.
  auto again = otm::testing::run_in(a, "'" + otm::testing::source_dir() + "/scripts/make-example-trace' .");
  CHECK(again.rc == 2);
  CHECK(again.err.find("already exists") != std::string::npos);
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST_CASE("the example trace covers the situations its README promises", "[example-trace]") {
  auto dir = fresh_temp_dir("trace-content");
  auto t = make_example_trace(dir);
  auto repo = git::Repository::open(t);
  auto commits = repo.commits_oldest_first();
  text::Regex version("(?i)^(v\\d+)\\s*:");
  std::set<std::string> versions;
  std::size_t bookkeeping = 0, v14 = 0;
  for (const auto &c : commits) {
    auto m = version.search(c.subject);
    if (!m) {
      ++bookkeeping;
      continue;
    }
    versions.insert(std::string((*m)[1]));
    if ((*m)[1] == "v14") ++v14;
  }
  CHECK(versions.size() >= 30);
  CHECK(bookkeeping >= 3);
  CHECK(v14 == 2);
  std::string msgs = all_messages(repo);
  // The three kept-subject grammars, list- and prose-form dead-ends.
  CHECK(text::Regex("kept -> [\\d.]+\\x{2192}[\\d.]+\\x{00b5}s \\(-[\\d.]+%\\) no improvement over [\\d.]+us, "
                    "\\d+(?:st|nd|rd|th) consecutive dead-end")
            .contains(msgs));
  CHECK(text::Regex("(?m)^v\\d+: [^\\n]+ \\(-[\\d.]+%\\)$").contains(msgs));
  CHECK(text::Regex("[\\d.]+ -> [\\d.]+ us").contains(msgs));
  CHECK(text::Regex("dead-end recorded: [^\\n]+\\([^)]*, [^)]*\\)[^\\n]*\\. Next: ").contains(msgs));
  CHECK(text::Regex("(?m)^v\\d+: reverted \\x{2014} ").contains(msgs));
  // Step records: variants, an unparseable file, both templates.
  for (const char *f : {"memory/v7_rerun.json", "memory/v3-baseline.json", "memory/summary.json"})
    CHECK(io::is_regular_file(t / f));
  CHECK_THROWS_AS(json::parse_file(t / "memory/v31.json"), json::ParseError);
  auto newer = json::parse_file(t / "memory/v23.json");
  CHECK(newer.get("performance").contains("latency_us"));
  CHECK_FALSE(newer.get("performance").contains("latency_us_geomean"));
  CHECK(newer.get("pitfalls_and_fixes")[0].contains("root_cause"));
  CHECK(json::parse_file(t / "memory/v8.json").get("pitfalls_and_fixes")[0].contains("explanation"));
  // Captures with and without a kernel filter; all four report anchors.
  CHECK(io::read_file(t / "profiles/v2_ncu/summary.txt").find("Kernel: distribution_elementwise_grid_stride_kernel") !=
        std::string::npos);
  CHECK(io::read_file(t / "profiles/v5_ncu/summary.txt").find("Kernel: fused_softmax_kernel") != std::string::npos);
  std::string reports;
  for (const auto &d : io::list_dir(t / "profiles"))
    if (io::is_regular_file(d / "REPORT.md")) reports += io::read_file(d / "REPORT.md");
  for (const char *anchor :
       {"**Root cause**:", "## Key Finding", "## Diagnosis", "## Bottleneck Analysis", "**Evidence**:"})
    CHECK(reports.find(anchor) != std::string::npos);
  // Snapshots (two mega milestones among them), metadata, DSL migration.
  for (const char *f :
       {"versions/kernel_v3.py", "versions/kernel_v21.py", "definition.json", "solution.json", "workload.jsonl"})
    CHECK(io::is_regular_file(t / f));
  CHECK(io::read_file(t / "kernel.py").find("gluon") != std::string::npos);
  CHECK(repo.read_at(commits[1].sha, "kernel.py")->find("import triton") != std::string::npos);
  CHECK(io::read_file(t / "solution.json").find("B200") != std::string::npos);
  // Private strings a scrubber must remove later.
  std::string everything = msgs + reports + io::read_file(t / "memory/v7.json");
  for (const char *leak : {"/home/alice/", "alice.chen@example.com", "docs/notes/softmax-tuning.md", "v4", "5e6f7a8b"})
    CHECK(everything.find(leak) != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("the degraded example-trace variants drop exactly one capability", "[example-trace]") {
  auto dir = fresh_temp_dir("trace-variants");
  auto no_memory = make_example_trace(dir / "m", "no-memory");
  CHECK_FALSE(fs::exists(no_memory / "memory"));
  CHECK(fs::exists(no_memory / "profiles"));
  auto no_profiles = make_example_trace(dir / "p", "no-profiles");
  CHECK_FALSE(fs::exists(no_profiles / "profiles"));
  CHECK(fs::exists(no_profiles / "memory"));
  auto no_hw = make_example_trace(dir / "h", "no-hardware");
  text::Regex hw("(?i)b200|target_hardware|\"gpu\"|\"hardware\"");
  for (const char *f : {"definition.json", "solution.json"}) CHECK_FALSE(hw.contains(io::read_file(no_hw / f)));
  auto repo = git::Repository::open(no_hw);
  for (const auto &c : repo.commits_oldest_first())
    for (const char *f : {"definition.json", "solution.json"})
      if (auto text = repo.read_at(c.sha, f)) CHECK_FALSE(hw.contains(*text));
  CHECK(fs::exists(no_hw / "memory"));
  CHECK(fs::exists(no_hw / "profiles"));
  auto bad =
      otm::testing::run_in(dir, "'" + otm::testing::source_dir() + "/scripts/make-example-trace' x --variant bogus");
  CHECK(bad.rc == 2);
  fs::remove_all(dir);
}
