#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "config/settings.hpp"
#include "error_kind.hpp"
#include "trace/ingest.hpp"
#include "trace_fixture.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm::trace;
using otm::config::Setting;
using otm::json::to_line;

namespace {

struct Fixture {
  otm::test::TempDir tmp;
  otm::test::GitTrace trace{tmp.path() / "kernel_opt_042_rmsnorm_h4096"};
  otm::config::Config config = otm::config::Config::defaults();
  otm::config::Settings settings;
  Fixture() {
    settings.set(Setting::Trace, trace.dir().string());
    settings.set(Setting::Workspace, (tmp.path() / "ws").string());
    settings.set(Setting::Store, (tmp.path() / "store").string());
  }
  IngestResult run() { return ingest(locate_trace(settings, config), config); }
};

const otm::json::Value &row(const IngestResult &r, const std::string &version) {
  for (const auto &v : r.versions)
    if (v.string_or("version") == version) return v;
  FAIL("no row " << version);
  return otm::json::null_value();
}

} // namespace

TEST_CASE("ingest: versions, order, last commit wins, DSL per blob, meta", "[ingest]") {
  Fixture f;
  auto &t = f.trace;
  t.write("solution.json", R"({"spec": {"target_hardware": ["H100 SXM"], "languages": ["triton"]}})");
  t.write("definition.json", R"({"name": "rmsnorm_h4096", "description": "RMS norm", "axes": {"H": {"type": "const",
      "value": 4096}, "M": {"type": "var"}, "E": {"type": "const", "value": null}}})");
  t.write("workload.jsonl", "{\"M\": 1}\n\n  \n{\"M\": 2}\n");
  t.write("kernel.py", "import torch\n");
  t.commit("v0: baseline");
  t.write("kernel.py", "import triton\n");
  t.commit("V1: first try 10 -> 9us (-10%)");
  t.commit("chore: notes");
  t.write("kernel.py", "import triton  # v1 again\n");
  t.commit("v1: amended", "", 1); // clock skew: older timestamp, still the newest commit
  t.write("kernel.py", "from triton.experimental import gluon\n");
  t.commit("v2: reverted - dead-end recorded: wider tiles, more warps", "Body mentions nothing.");
  t.write("memory/v01.json", R"({"performance": {"latency_us_geomean": 11.0}})");
  t.write("memory/v2.json", R"({"performance": {"latency_us": 8}, "pitfalls_and_fixes": [{"error_message": "OOB",
      "root_cause": "mask", "fix_applied": "masked load"}]})");
  t.write("memory/v2_rerun.json", "{}");
  t.write("profiles/v2_ncu/summary.txt", "Kernel: rms_kernel\n");
  t.write("profiles/v2_ncu/REPORT.md", "x\n");
  t.write("profiles/v2_bad/summary.txt", "Kernel: distribution_elementwise_grid_stride_kernel\n");
  t.commit("docs: add records");
  auto r = f.run();

  std::vector<std::string> order;
  for (const auto &v : r.versions) order.push_back(v.string_or("version"));
  CHECK(order == std::vector<std::string>{"v0", "v01", "v1", "v2"}); // ties on N broken by key

  const auto &v1 = row(r, "v1");
  CHECK(v1.string_or("subject") == "v1: amended");
  CHECK(v1.string_or("sha") == t.rev("HEAD~2"));
  CHECK(v1.string_or("parent") == t.rev("HEAD~3"));
  CHECK(v1.string_or("date") == "2025-01-01T00:01:00+00:00");
  CHECK(v1.string_or("dsl") == "triton");
  CHECK_FALSE(v1.get("has_memory").truthy());
  CHECK_FALSE(v1.contains("subject_pct")); // the earlier commit's fields are discarded
  // The commits naming no version since the version commit before it, where
  // a harness change is read (kit 61, J19); none before v2.
  CHECK(to_line(v1.get("other_commits_before")) == R"(["chore: notes"])");

  const auto &v0 = row(r, "v0");
  CHECK(v0.get("parent").is_null());
  CHECK(v0.string_or("dsl") == "any");

  const auto &v01 = row(r, "v01");
  CHECK_FALSE(v01.get("has_commit").truthy());
  CHECK(v01.string_or("dsl") == "gluon"); // dsl_default = working-tree detection
  CHECK(to_line(v01.get("geomean_us")) == "11.0");

  const auto &v2 = row(r, "v2");
  std::vector<std::string> keys;
  for (const auto &[k, _] : *v2.as_object()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"version",
                                         "n",
                                         "has_commit",
                                         "has_memory",
                                         "dsl",
                                         "profile_dirs",
                                         "ncu_usable_dirs",
                                         "report_dirs",
                                         "sha",
                                         "parent",
                                         "date",
                                         "subject",
                                         "body",
                                         "reverted",
                                         "deadend_blob",
                                         "deadend_items",
                                         "memory_file",
                                         "geomean_us",
                                         "by_shape",
                                         "arith_mean_us",
                                         "speedup_vs_ref",
                                         "correctness_status",
                                         "max_abs_err",
                                         "max_rel_err",
                                         "gate_result",
                                         "gate_failure",
                                         "action_category",
                                         "action_description",
                                         "expected_impact",
                                         "git_commit_hash",
                                         "open_directions",
                                         "pitfalls",
                                         "search_log",
                                         "profile_evidence",
                                         "geomean_source"});
  CHECK(v2.string_or("dsl") == "gluon");
  CHECK_FALSE(v2.contains("other_commits_before"));
  CHECK(v2.get("reverted").truthy());
  CHECK(to_line(v2.get("profile_dirs")) == R"(["v2_bad", "v2_ncu"])");
  CHECK(to_line(v2.get("ncu_usable_dirs")) == R"(["v2_ncu"])");
  CHECK(to_line(v2.get("report_dirs")) == R"(["v2_ncu"])");
  CHECK(v2.string_or("geomean_source") == "latency_us");
  CHECK(v2.get("pitfalls")[0].string_or("pitfall") == "OOB");

  const auto &meta = r.meta.get("meta");
  CHECK(to_line(meta) ==
        R"j({"operator_name": "rmsnorm_h4096", "operator_slug": "rmsnorm-and-fused-add-rmsnorm", )j"
        R"j("workload_family": "norm", "description": "RMS norm", "constants": {"H": 4096}, "var_axes": ["M"], )j"
        R"j("n_shapes": 2, "target_hardware": ["H100 SXM"], "languages": ["triton"], "final_dsl": "gluon", )j"
        R"j("vendor": "nvidia", "arch": "hopper", "product": "h100", "arch_basis": "detected from the trace )j"
        R"j((H100 SXM)", "dsl_default": "gluon", "harness": "the trace's own benchmark harness", "source_repo": )j"
        R"j("kernel_opt_042_rmsnorm_h4096", "head_sha": ")j" +
            t.rev("HEAD") + R"j(", "kernel_file": "kernel.py"})j");
  CHECK(to_line(r.meta.get("memory_variants")) == R"([{"file": "v2_rerun.json", "base": "v2", "suffix": "rerun"}])");
  CHECK(to_line(r.meta.get("non_version_commits")) == R"(["chore: notes", "docs: add records"])");
  CHECK(r.profiles.size() == 2);

  auto text = summary_text(locate_trace(f.settings, f.config), r);
  CHECK_THAT(text, Catch::Contains("4 total, 3 with commit, 2 with memory, 1 with both"));
  CHECK_THAT(text, Catch::Contains("1 reverted, 2 kept"));
  CHECK_THAT(text, Catch::Contains("1 subjects with a parsed list, 2 items"));
  CHECK_THAT(text, Catch::Contains("2, 1 usable (50%)"));
  CHECK_THAT(text, Catch::Contains("1 versions read performance.latency_us"));
}

TEST_CASE("ingest: configured DSL names what detection could not, invalid settings refuse", "[ingest]") {
  Fixture f;
  f.trace.write("kernel.py", "import torch\n");
  f.trace.commit("v0: baseline");
  f.trace.write("kernel.py", "# \xff\xfe not UTF-8\nimport torch \xc3\n@triton.jit\n");
  f.trace.commit("v1: invalid bytes do not hide the keyword");
  f.settings.set(Setting::Arch, "blackwell");
  f.settings.set(Setting::Dsl, "cuda");
  auto r = f.run();
  CHECK(r.versions[0].string_or("dsl") == "cuda");
  CHECK(r.versions[1].string_or("dsl") == "triton");
  CHECK(r.meta.get("meta").string_or("arch_basis") == "configured (RTM_ARCH / registry entry)");
  CHECK(r.meta.get("meta").string_or("vendor") == "nvidia");
  CHECK(r.meta.get("meta").string_or("product") == "any");
  f.settings.set(Setting::Dsl, "Triton");
  CHECK_THROWS_WITH(f.run(), Catch::Contains("RTM_DSL / --dsl is 'Triton'"));
  f.settings.unset(Setting::Dsl);
  f.settings.set(Setting::Vendor, "amd");
  CHECK_THROWS_MATCHES(f.run(), otm::Error, otm::test::of_kind(otm::ErrorKind::Refused));
  f.settings.unset(Setting::Vendor);
  f.settings.unset(Setting::Arch);
  CHECK_THROWS_WITH(f.run(), Catch::Contains("RTM_ARCH"));
}

TEST_CASE("ingest: write_ingest writes the three files atomically into the workspace", "[ingest]") {
  Fixture f;
  f.trace.write("solution.json", R"({"spec": {"target_hardware": "b200"}})");
  f.trace.commit("v0: baseline");
  auto loc = locate_trace(f.settings, f.config);
  auto r = ingest(loc, f.config);
  write_ingest(loc, r, "");
  CHECK(otm::json::parse_lines_file(loc.workspace.versions_file()).size() == 1);
  CHECK(std::filesystem::exists(loc.workspace.profiles_file()));
  CHECK(otm::json::parse_file(loc.workspace.meta_file()).get("meta").string_or("product") == "b200");
  CHECK(std::filesystem::is_directory(loc.workspace.packets_dir()));
  write_ingest(loc, r, (f.tmp.path() / "elsewhere.jsonl").string());
  CHECK(otm::json::parse_lines_file(f.tmp.path() / "elsewhere.jsonl").size() == 1);
}
