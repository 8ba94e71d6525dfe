// Running a tool or a shell command from a test: one implementation of
// quoting, exit statuses and captured output, and of the clean environment
// a tool runs in so the caller's RTM_* / OTM_* variables never leak in.
#pragma once

#include <filesystem>
#include <string>

namespace otm::testsupport {

// `s` as one single-quoted /bin/sh word.
std::string shell_quote(const std::string &s);

// The built executable `tool` (bin_dir()/tool), unquoted.
std::string tool_path(const std::string &tool);

// `command` run with an empty environment but PATH (the caller's, else
// /usr/bin:/bin) and the `env` assignments ("NAME=value ...", already
// quoted): what a tool sees when no RTM_* setting is made.
std::string clean_env(const std::string &command, const std::string &env = "");

// The exit status of `/bin/sh -c command` (-1 when it did not exit).
int sh(const std::string &command);

// stdout of `/bin/sh -c command`, which must succeed (a test failure
// otherwise), with trailing newlines and carriage returns removed.
std::string sh_out(const std::string &command);

struct RunResult {
  int code = -1;
  std::string out, err;
};

// `command` run through /bin/sh, its stdout and stderr captured through
// files in `scratch` (removed afterwards).
RunResult run_capturing(const std::string &command, const std::filesystem::path &scratch);
// The same, run in directory `dir` (and captured there).
RunResult run_in(const std::filesystem::path &dir, const std::string &command);

} // namespace otm::testsupport
