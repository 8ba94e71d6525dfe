#include "process.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include "test_paths.hpp"

namespace otm::testsupport {

namespace fs = std::filesystem;

std::string shell_quote(const std::string &s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string tool_path(const std::string &tool) { return otm::testing::bin_dir() + "/" + tool; }

std::string clean_env(const std::string &command, const std::string &env) {
  const char *path = std::getenv("PATH");
  return "env -i PATH=" + shell_quote(path ? path : "/usr/bin:/bin") + " " + env + " " + command;
}

int sh(const std::string &command) {
  int rc = std::system(command.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string sh_out(const std::string &command) {
  std::string out;
  FILE *p = ::popen(command.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  INFO(command);
  REQUIRE(::pclose(p) == 0);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

RunResult run_capturing(const std::string &command, const fs::path &scratch) {
  const fs::path o = scratch / ".otm-run.out", e = scratch / ".otm-run.err";
  std::string cmd = "{ " + command + " ; } >" + shell_quote(o.string()) + " 2>" + shell_quote(e.string());
  RunResult r;
  r.code = sh(cmd);
  auto slurp = [](const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  r.out = slurp(o);
  r.err = slurp(e);
  std::error_code ec;
  fs::remove(o, ec);
  fs::remove(e, ec);
  return r;
}

RunResult run_in(const fs::path &dir, const std::string &command) {
  return run_capturing("cd " + shell_quote(dir.string()) + " && " + command, dir);
}

} // namespace otm::testsupport
