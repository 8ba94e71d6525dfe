// Builds small traces for tests: a fresh temp directory per fixture and a git
// repository driven by the git binary with fixed names and dates, so hashes
// are reproducible.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "process.hpp"
#include "scratch.hpp"

namespace otm::test {

namespace fs = std::filesystem;

using testsupport::shell_quote;
using testsupport::write_text;

using RunResult = testsupport::RunResult;

// Runs a shell command, capturing stdout and stderr through files.
inline RunResult run(const std::string &cmd, const fs::path &scratch) {
  return testsupport::run_capturing(cmd, scratch);
}

using testsupport::TempDir;

class GitTrace {
public:
  explicit GitTrace(fs::path dir) : dir_(std::move(dir)) {
    fs::create_directories(dir_);
    git("init -q -b main");
  }
  const fs::path &dir() const { return dir_; }
  void write(const std::string &rel, const std::string &text) const { write_text(dir_ / rel, text); }
  // Commits everything with a fixed author/committer and a date that
  // advances by one minute per commit.
  // `minute` overrides the date (to make clocks skew).
  void commit(const std::string &subject, const std::string &body = "", int minute = -1) {
    ++n_;
    int m = minute >= 0 ? minute : n_;
    char date[64];
    std::snprintf(date, sizeof date, "2025-01-01T%02d:%02d:00+00:00", m / 60, m % 60);
    std::string env = std::string("GIT_AUTHOR_DATE=") + date + " GIT_COMMITTER_DATE=" + date +
                      " GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t "
                      "GIT_COMMITTER_EMAIL=t@example.com ";
    std::string msg =
        body.empty() ? " -m " + shell_quote(subject) : " -m " + shell_quote(subject) + " -m " + shell_quote(body);
    git("add -A", "");
    git("commit -q --allow-empty" + msg, env);
  }
  std::string rev(const std::string &what) const {
    auto r = run("git -C " + shell_quote(dir_.string()) + " rev-parse " + what, dir_.parent_path());
    return r.out.substr(0, r.out.find('\n'));
  }

private:
  void git(const std::string &args, const std::string &env = "") const {
    auto r = run(env + "git -C " + shell_quote(dir_.string()) + " " + args, dir_.parent_path());
    if (r.code != 0) throw std::runtime_error("git " + args + " failed: " + r.err);
  }
  fs::path dir_;
  int n_ = 0;
};

} // namespace otm::test
