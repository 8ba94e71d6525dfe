// A small synthetic trace for the partition / packet / recon tests: a git
// repository (built with the git binary, tests only) whose history covers a
// baseline, milestones, a re-committed version, a dead-end that restored its
// kernel, a mega snapshot and a final; plus the work/ files ingest and the
// ladder would write for it.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>

#include "io/file.hpp"
#include "scratch.hpp"
#include "json/parse.hpp"
#include "json/value.hpp"
#include "json/write.hpp"

namespace otm::testing {

namespace fs = std::filesystem;

inline std::string sh(const std::string &cmd) {
  std::string out;
  FILE *p = ::popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("popen failed: " + cmd);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = ::pclose(p);
  if (rc != 0) throw std::runtime_error("command failed (" + std::to_string(rc) + "): " + cmd);
  return out;
}

inline fs::path fresh_dir(const std::string &name) { return testsupport::fresh_temp_dir(name); }

inline void write(const fs::path &p, const std::string &content) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

struct SyntheticTrace {
  fs::path root, trace, workspace, store;
  std::map<std::string, std::string> sha; // commit label -> sha
  std::vector<json::Value> rows;          // ladder-annotated
  json::Value meta_file;
  std::vector<json::Value> profiles;

  std::string git(const std::string &args) const {
    return sh("cd '" + trace.string() + "' && git -c core.autocrlf=false " + args + " 2>&1");
  }
  void commit(const std::string &label, const std::string &subject, const std::string &kernel) {
    write(trace / "kernel.py", kernel);
    git("add -A");
    git("commit -q -m '" + subject + "'");
    sha[label] = std::string(git("rev-parse HEAD").substr(0, 40));
  }

  explicit SyntheticTrace(const std::string &name) {
    root = fresh_dir(name);
    trace = root / "kernel_opt_001_example_fused_softmax_h4096";
    workspace = root / "ws";
    store = root / "staging";
    fs::create_directories(trace);
    git("init -q");
    git("config user.email t@example.invalid");
    git("config user.name tester");
    git("config commit.gpgsign false");
    const std::string head = "import triton\nimport triton.language as tl\n\n";
    std::string k0 = head + "@triton.jit\ndef softmax(x_ptr, y_ptr, N):\n    # naive two-pass version\n"
                            "    row = tl.program_id(0)\n    x = tl.load(x_ptr + row * N)\n"
                            "    y = tl.exp(x - tl.max(x)) / tl.sum(tl.exp(x - tl.max(x)))\n"
                            "    tl.store(y_ptr + row * N, y)\n";
    std::string k1 = k0;
    k1.replace(k1.find("    x = tl.load"), 0, "    # v1: 128-bit loads, see /home/alice/notes.md\n");
    std::string k2 = k1 + "\n# shared-memory staging attempt (kernel_opt_001_example)\nSTAGE = 2\n";
    std::string k3a = k1;
    k3a.replace(k3a.find("    y = tl.exp"), 0, "    m = tl.max(x)  # online max\n");
    std::string k3b = k3a + "\ndef mask(n):\n    '''Mask for deadbeef shapes from v3.'''\n    return n // 2\n";
    std::string k4 = k3b + "\nPERSISTENT = True\nSTAGES = 2\n";
    std::string k5 = k4 + "NUM_WARPS = 8\n";
    std::string k6 = k5 + "CLUSTER = 2\n";
    commit("v0", "v0: baseline two-pass softmax", k0);
    write(trace / "profiles" / "v1_ncu" / "REPORT.md",
          "# Report\n\n**Root cause**: the kernel is bandwidth-bound at 91% of DRAM peak on shape 3f2a91bc, "
          "measured by ACME-Internal tooling at /home/alice/runs; see git log -p for history.\n\nMore text.\n");
    write(trace / "profiles" / "v1_ncu" / "summary.txt", "Kernel: softmax\n");
    commit("v1", "v1: vectorized the row loads to 128-bit so each thread moves 16 bytes (-12.0%)", k1);
    commit("v2a", "v2: shared-memory staging attempt", k2);
    commit("v2",
           "v2: reverted (dead-end recorded: shared-memory staging of the row is slower because the tile no "
           "longer fits in one bank set, tiny, persistent grid over rows costs 2x in launch overhead when M "
           "< 64)",
           k1);
    commit("v3a", "v3: fused the max and sum passes into one online-softmax loop (-30.0%)", k3a);
    commit("v3", "v3: fix the mask of the online loop", k3b);
    write(trace / "versions" / "kernel_v4.py", k4);
    commit("v4", "v4: persistent kernel with 2-stage pipelining (-25.0%)", k4);
    commit("v5", "v5: retuned num_warps to 8", k5);
    commit("v6",
           "v6: reverted - tried splitting the reduction across two CTAs with a cluster barrier; it "
           "serialized on the DSMEM exchange and was 3x slower on every shape",
           k6);
    build_work();
  }

  json::Value row(const std::string &ver, int n, const std::string &label, const std::string &selection) {
    json::Value r = json::Value::object();
    r.set("version", ver);
    r.set("n", n);
    r.set("has_commit", !label.empty());
    r.set("has_memory", true);
    r.set("dsl", "triton");
    r.set("profile_dirs", json::Value::array());
    r.set("ncu_usable_dirs", json::Value::array());
    r.set("report_dirs", json::Value::array());
    if (!label.empty()) {
      r.set("sha", sha.at(label));
      std::string parents = git("log -1 --format=%P " + sha.at(label));
      r.set("parent", parents.size() >= 40 ? json::Value(parents.substr(0, 40)) : json::Value());
      r.set("date", "2026-01-0" + std::to_string(n % 9 + 1) + "T00:00:00+00:00");
      r.set("subject", git("log -1 --format=%s " + sha.at(label)).substr(0, std::string::npos));
      auto &s = *r.find("subject");
      std::string t = *s.as_string();
      while (!t.empty() && t.back() == '\n') t.pop_back();
      s = t;
      r.set("body", "");
      r.set("reverted", t.find("reverted") != std::string::npos);
    }
    r.set("memory_file", ver + ".json");
    r.set("by_shape", json::Value::object());
    r.set("selection", selection);
    r.set("reason", json::Value());
    r.set("improve_pct", json::Value());
    return r;
  }

  void build_work() {
    auto v0 = row("v0", 0, "v0", "baseline");
    v0.set("geomean_us", 100.0);
    v0.set("action_description", "Baseline two-pass softmax.");
    auto v1 = row("v1", 1, "v1", "milestone");
    v1.set("geomean_us", 88.0);
    v1.set("improve_pct", 12.0);
    v1.set("profile_dirs", json::Value::strings({"v1_ncu"}));
    v1.set("ncu_usable_dirs", json::Value::strings({"v1_ncu"}));
    v1.set("report_dirs", json::Value::strings({"v1_ncu"}));
    v1.set("action_category", "memory_access");
    v1.set("action_description", "Vectorized the row loads to 128-bit so each thread moves 16 bytes (was v0's "
                                 "scalar loads, see profiles/v1_ncu/REPORT.md).");
    v1.set("correctness_status", "PASS");
    v1.set("max_abs_err", 0.0001);
    json::Value shapes = json::Value::object();
    shapes.set("3f2a91bc-1111-2222-3333-444455556666", 90.0);
    shapes.set("aaaa1111", 80.5);
    shapes.set("M=4096", 95.0);
    v1.set("by_shape", shapes);
    json::Value dirs = json::Value::array();
    for (int i = 0; i < 7; ++i) {
      json::Value d = json::Value::object();
      d.set("direction", "try tiling variant " + std::to_string(i) + " for shape " + (i == 6 ? "bbbb2222" : "M=1"));
      d.set("rationale", "from v" + std::to_string(i));
      dirs.push_back(d);
    }
    v1.set("open_directions", dirs);
    json::Value newer = json::Value::object();
    newer.set("error_type", "MisalignedAccess");
    newer.set("error_message", "128-bit loads fault when the row pitch is not a multiple of 8 bf16 elements");
    newer.set("root_cause", "vector loads require 16-byte alignment");
    newer.set("fix_applied", "pad the row pitch to 8 elements");
    newer.set("lesson", "check alignment before vectorizing");
    v1.set("pitfalls", json::Value(json::Array{newer}));
    auto v2 = row("v2", 2, "v2", "deadend");
    v2.set("geomean_us", 95.0);
    v2.set("deadend_items", json::Value::strings({"shared-memory staging of the row is slower because the tile no "
                                                  "longer fits in one bank set",
                                                  "tiny",
                                                  "persistent grid over rows costs 2x in launch overhead when M < "
                                                  "64"}));
    json::Value skipped = json::Value::object();
    skipped.set("pitfall", "staging needs 2 barriers per row on sm_100");
    v2.set("pitfalls", json::Value(json::Array{skipped}));
    auto v3 = row("v3", 3, "v3", "mega");
    v3.set("geomean_us", 61.6);
    v3.set("improve_pct", 30.0);
    v3.set("action_description", "Fused the max and sum passes into one online-softmax loop.");
    auto v4 = row("v4", 4, "v4", "mega");
    v4.set("geomean_us", 46.2);
    v4.set("improve_pct", 25.0);
    v4.set("action_description", "Persistent kernel with 2-stage pipelining.");
    auto v5 = row("v5", 5, "v5", "final");
    v5.set("geomean_us", 46.2);
    v5.set("reason", "under 1.5% (0.00%)");
    v5.set("improve_pct", 0.0);
    auto v6 = row("v6", 6, "v6", "deadend");
    v6.set("geomean_us", 150.0);
    v6.set("gate_failure", "Attempted cluster split; 3x slower.");
    auto v7 = row("v7", 7, "", "rejected");
    v7.set("reason", "no commit, code not reachable");
    json::Value p1 = json::Value::object();
    p1.set("pitfall", "short");
    json::Value p2 = json::Value::object();
    p2.set("pitfall", "num_warps=16 spills registers on B200.");
    p2.set("explanation", "the online loop keeps 3 fp32 accumulators per element");
    p2.set("fix", "keep num_warps at 8");
    v7.set("pitfalls", json::Value(json::Array{p1, p2}));
    rows = {v0, v1, v2, v3, v4, v5, v6, v7};

    json::Value meta = json::Value::object();
    meta.set("operator_name", "fused_softmax_h4096");
    meta.set("operator_slug", "fused-softmax-h4096");
    meta.set("workload_family", "softmax");
    meta.set("description", "Row-wise softmax of a [M, 4096] bf16 matrix (notes in /home/alice/ops.md).");
    json::Value constants = json::Value::object();
    constants.set("N", 4096);
    meta.set("constants", constants);
    meta.set("var_axes", json::Value::strings({"M"}));
    meta.set("n_shapes", 3);
    meta.set("target_hardware", json::Value::strings({"NVIDIA B200"}));
    meta.set("languages", json::Value::strings({"triton"}));
    meta.set("final_dsl", "triton");
    meta.set("vendor", "nvidia");
    meta.set("arch", "blackwell");
    meta.set("product", "b200");
    meta.set("arch_basis", "detected from the trace (NVIDIA B200)");
    meta.set("dsl_default", "triton");
    meta.set("harness", "the trace's own benchmark harness");
    meta.set("source_repo", "kernel_opt_001_example_fused_softmax_h4096");
    meta.set("head_sha", sha.at("v6"));
    meta_file = json::Value::object();
    meta_file.set("meta", meta);
    json::Value variants = json::Value::array();
    json::Value var = json::Value::object();
    var.set("file", "v3_rerun.json");
    var.set("base", "v3");
    var.set("suffix", "rerun");
    variants.push_back(var);
    meta_file.set("memory_variants", variants);
    meta_file.set("non_version_commits", json::Value::array());
    json::Value prof = json::Value::object();
    prof.set("dir", "v1_ncu");
    prof.set("version", "v1");
    prof.set("variant", "ncu");
    prof.set("profiled_kernel", "softmax");
    prof.set("ncu_usable", true);
    prof.set("has_summary", true);
    prof.set("has_report", true);
    prof.set("has_metrics", false);
    prof.set("report_lines", 5);
    profiles = {prof};

    std::string ladder, versions;
    for (const auto &r : rows) ladder += json::to_line(r) + "\n";
    for (auto r : rows) {
      for (const char *k : {"selection", "reason", "improve_pct"}) r.erase(k);
      versions += json::to_line(r) + "\n";
    }
    io::write_file_atomic(workspace / "work" / "ladder.jsonl", ladder);
    io::write_file_atomic(workspace / "work" / "versions.jsonl", versions);
    io::write_file_atomic(workspace / "work" / "meta.json", json::to_pretty(meta_file));
    io::write_file_atomic(workspace / "work" / "profiles.jsonl", json::to_line(prof) + "\n");
  }

  ~SyntheticTrace() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

} // namespace otm::testing
