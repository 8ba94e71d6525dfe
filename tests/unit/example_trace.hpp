// Test support: the bundled example trace, generated on demand by
// scripts/make-example-trace into a fresh temporary directory (well under a
// second), with the shared helpers of tests/support/ (scratch directories,
// running a tool, golden files) under the names the tool-level tests use.
#pragma once

#include "test_paths.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "golden.hpp"
#include "io/file.hpp"
#include "process.hpp"
#include "scratch.hpp"

namespace otm::testing {

namespace fs = std::filesystem;

inline const char *kExampleTraceName = "kernel_opt_001_example_fused_softmax_h4096";

using testsupport::fresh_temp_dir;

struct ProcessResult {
  int rc = -1;
  std::string out, err;
};

// Runs `command` through /bin/sh in `dir`, capturing stdout and stderr.
inline ProcessResult run_in(const fs::path &dir, const std::string &command) {
  auto r = testsupport::run_in(dir, command);
  return {r.code, std::move(r.out), std::move(r.err)};
}

inline std::string bin(const std::string &tool) { return testsupport::shell_quote(testsupport::tool_path(tool)); }

// Builds the example trace (or a variant: no-memory, no-profiles,
// no-hardware) under `outdir` and returns the trace directory.
inline fs::path make_example_trace(const fs::path &outdir, const std::string &variant = "") {
  std::string cmd = "'" + otm::testing::source_dir() + "/scripts/make-example-trace' '" + outdir.string() + "'";
  if (!variant.empty()) cmd += " --variant " + variant;
  fs::create_directories(outdir);
  auto r = run_in(outdir, cmd);
  if (r.rc != 0) throw std::runtime_error("make-example-trace failed: " + r.err);
  return outdir / kExampleTraceName;
}

// Golden files (tests/support/golden.hpp): a mismatch shows the first
// differing lines.
using testsupport::check_golden;
using testsupport::golden_path;
using testsupport::update_golden;

} // namespace otm::testing
