// Test support: the bundled example trace, generated on demand by
// scripts/make-example-trace into a fresh temporary directory (well under a
// second), and a small process runner for tool-level tests. Header-only so
// any test file can include it.
#pragma once

#include "test_paths.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "io/file.hpp"

namespace otm::testing {

namespace fs = std::filesystem;

inline const char *kExampleTraceName = "kernel_opt_001_example_fused_softmax_h4096";

// A fresh, empty directory under the system temp dir, unique per call.
inline fs::path fresh_temp_dir(const std::string &tag) {
  static std::atomic<int> counter{0};
  auto d =
      fs::temp_directory_path() / ("otm-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

struct ProcessResult {
  int rc = -1;
  std::string out, err;
};

// Runs `command` through /bin/sh in `dir`, capturing stdout and stderr.
inline ProcessResult run_in(const fs::path &dir, const std::string &command) {
  std::string cmd = "cd '" + dir.string() + "' && { " + command + " ; } >.otm-out.txt 2>.otm-err.txt";
  int status = std::system(cmd.c_str());
  ProcessResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = io::read_file(dir / ".otm-out.txt");
  r.err = io::read_file(dir / ".otm-err.txt");
  fs::remove(dir / ".otm-out.txt");
  fs::remove(dir / ".otm-err.txt");
  return r;
}

inline std::string bin(const std::string &tool) { return "'" + otm::testing::bin_dir() + "/" + tool + "'"; }

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

// Golden files live in testdata/golden/. With OTM_UPDATE_GOLDEN=1 a test
// rewrites the golden instead of comparing (review the diff before
// committing).
inline bool update_golden() {
  const char *v = std::getenv("OTM_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

inline fs::path golden_path(const std::string &rel) {
  return fs::path(otm::testing::source_dir()) / "testdata" / "golden" / rel;
}

// Compares `actual` with the golden file, or rewrites it when updating.
// Returns an empty string on match, else a message naming the file.
inline std::string check_golden(const std::string &rel, const std::string &actual) {
  fs::path p = golden_path(rel);
  if (update_golden()) {
    io::write_file_atomic(p, actual);
    return "";
  }
  if (!fs::exists(p)) return "golden file " + p.string() + " is missing (regenerate with OTM_UPDATE_GOLDEN=1)";
  if (io::read_file(p) != actual)
    return "output differs from " + p.string() + " (review, then regenerate with OTM_UPDATE_GOLDEN=1)";
  return "";
}

} // namespace otm::testing
