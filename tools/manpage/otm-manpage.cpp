// Build helper (not installed): runs an otm executable with --help and
// --version and writes its manual page (cli::man_page) to the given file.
//   otm-manpage EXECUTABLE OUTPUT.1
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "cmdline/man_page.hpp"
#include "io/file.hpp"

namespace {

// The executable's stdout for `arg`; exits 2 when it fails.
std::string output_of(const std::string &exe, const std::string &arg) {
  std::string cmd = "'" + exe + "' " + arg;
  FILE *p = ::popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = ::pclose(p);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(cmd + " failed");
  return out;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: otm-manpage EXECUTABLE OUTPUT.1\n";
    return 2;
  }
  try {
    std::string exe = argv[1];
    std::string tool = std::filesystem::path(exe).filename().string();
    std::string version = output_of(exe, "--version");
    while (!version.empty() && version.back() == '\n') version.pop_back();
    otm::io::write_file_atomic(argv[2], otm::cli::man_page(tool, output_of(exe, "--help"), version),
                               otm::io::FileClass::Scratch);
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "otm-manpage: " << e.what() << "\n";
    return 2;
  }
}
