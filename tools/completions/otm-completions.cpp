// Build helper (not installed): the shell completions of every otm command,
// from `otm help` (the commands and their summaries) and each command's
// --help (its options), written as a bash script and a zsh function
// (cli::bash_completion, cli::zsh_completion).
//   otm-completions BIN_DIR OUTPUT.bash OUTPUT_ZSH
#include <sys/wait.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "cmdline/completion.hpp"
#include "error/error.hpp"
#include "io/file.hpp"
#include "text/regex.hpp"

namespace {

// The executable's stdout for `arg`; an Error when it fails.
std::string output_of(const std::string &exe, const std::string &arg) {
  std::string cmd = "'" + exe + "' " + arg + " </dev/null";
  FILE *p = ::popen(cmd.c_str(), "r");
  if (!p) throw otm::Error(otm::ErrorKind::Io, "cannot run " + cmd);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = ::pclose(p);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw otm::Error(otm::ErrorKind::Io, cmd + " failed");
  return out;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::cerr << "usage: otm-completions BIN_DIR OUTPUT.bash OUTPUT_ZSH\n";
    return 2;
  }
  try {
    const std::string bin = argv[1];
    // `otm help`: after "Commands:", one "  <name>  <summary>" line each.
    static const otm::text::Regex command_line(R"(^  ([a-z0-9-]+) +(.*)$)");
    std::vector<otm::cli::CommandCompletion> commands;
    std::string help = output_of(bin + "/otm", "help");
    auto list = help.find("\nCommands:\n");
    if (list == std::string::npos) throw otm::Error(otm::ErrorKind::UnreadableInput, "otm help lists no commands");
    std::size_t pos = list + 11;
    while (pos < help.size()) {
      auto nl = help.find('\n', pos);
      std::string line = help.substr(pos, nl - pos);
      pos = nl == std::string::npos ? help.size() : nl + 1;
      auto m = command_line.match(line);
      if (!m) continue;
      otm::cli::CommandCompletion c;
      c.command = "otm-" + std::string((*m)[1]);
      c.summary = std::string((*m)[2]);
      c.options = otm::cli::options_in_help(output_of(bin + "/" + c.command, "--help"));
      commands.push_back(std::move(c));
    }
    otm::io::write_file_atomic(argv[2], otm::cli::bash_completion(commands), otm::io::FileClass::Scratch);
    otm::io::write_file_atomic(argv[3], otm::cli::zsh_completion(commands), otm::io::FileClass::Scratch);
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "otm-completions: " << e.what() << "\n";
    return 2;
  }
}
