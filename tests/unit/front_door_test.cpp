// The front door of the one executable (tool/front_door.hpp), in process:
// `otm help`, `otm help COMMAND`, `otm COMMAND ARGS`, `otm --version` and a
// name that is no command, over a table of stand-in commands.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cmdline/build_info.hpp"
#include "gates/gates.hpp"
#include "tool/front_door.hpp"

using namespace otm;

namespace {

// What the last stand-in command was run with: its argv, in full.
std::vector<std::string> g_last_argv;

int record_argv(int argc, char **argv) {
  g_last_argv.assign(argv, argv + argc);
  return 7; // the front door passes the command's own exit code on
}

const tool::Command kCommands[] = {
    {"otm-alpha", record_argv, "does the first thing"},
    {"otm-gate-ids", record_argv, ""},
    {"otm-longer-name", record_argv, "does another"},
};

struct Run {
  int rc;
  std::string out, err;
};

Run door(std::vector<std::string> args) {
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::ostringstream out, err;
  g_last_argv.clear();
  int rc = tool::multi_call_main(kCommands, static_cast<int>(args.size()), argv.data(), out, err);
  return {rc, out.str(), err.str()};
}

} // namespace

TEST_CASE("front door: the help lists every command of the table, one line each", "[cli][front-door]") {
  std::string help = tool::front_door_help(kCommands);
  CHECK_THAT(help, Catch::StartsWith("usage: otm COMMAND [ARGS...]\n       otm help [COMMAND]\n"));
  // Names without the otm- prefix, in one column; a gate's summary is the registry's.
  const auto *ids = gates::find_gate("ids");
  REQUIRE(ids);
  CHECK_THAT(help, Catch::EndsWith("\nCommands:\n"
                                   "  alpha        does the first thing\n"
                                   "  gate-ids     one gate: " +
                                   ids->summary +
                                   "\n"
                                   "  longer-name  does another\n"));
  for (const std::vector<std::string> &args :
       {std::vector<std::string>{"otm"}, {"otm", "help"}, {"otm", "--help"}, {"/usr/bin/otm", "-h"}}) {
    INFO(args.back());
    auto r = door(args);
    CHECK(r.rc == 0);
    CHECK(r.out == help);
    CHECK(r.err.empty());
    CHECK(g_last_argv.empty());
  }
}

TEST_CASE("front door: otm COMMAND ARGS runs otm-COMMAND under its own name", "[cli][front-door]") {
  auto r = door({"otm", "alpha", "--flag", "value"});
  CHECK(r.rc == 7);
  CHECK(g_last_argv == std::vector<std::string>{"otm-alpha", "--flag", "value"});
  door({"otm", "otm-longer-name"}); // the full name is taken too
  CHECK(g_last_argv == std::vector<std::string>{"otm-longer-name"});
  // `otm help COMMAND` is the command's --help; what follows is not passed on.
  door({"otm", "help", "gate-ids", "extra"});
  CHECK(g_last_argv == std::vector<std::string>{"otm-gate-ids", "--help"});
  // Under a command's own name (a link), the command runs with argv as given.
  door({"/some/bin/otm-alpha", "x"});
  CHECK(g_last_argv == std::vector<std::string>{"/some/bin/otm-alpha", "x"});
  CHECK(tool::find_command(kCommands, "alpha") == &kCommands[0]);
  CHECK(tool::find_command(kCommands, "otm-alpha") == &kCommands[0]);
  CHECK(tool::find_command(kCommands, "alp") == nullptr);
  CHECK(tool::find_command(kCommands, "otm-") == nullptr);
}

TEST_CASE("front door: --version, and what is no command is exit 2", "[cli][front-door]") {
  auto version = door({"otm", "--version"});
  CHECK(version.rc == 0);
  CHECK(version.out == cli::version_line("otm") + "\n");
  auto unknown = door({"otm", "nonesuch", "--help"});
  CHECK(unknown.rc == 2);
  CHECK(unknown.out.empty());
  CHECK(unknown.err == "otm: 'nonesuch' is no otm command; `otm help` lists them\n");
  CHECK(door({"otm", "help", "nonesuch"}).err == unknown.err);
  auto option = door({"otm", "--nonesuch"});
  CHECK(option.rc == 2);
  CHECK(option.err == "otm: unknown option '--nonesuch' (see otm --help)\n");
  // Under a name that is neither otm nor a command: where the commands are.
  auto stranger = door({"./otm-nonesuch", "--version"});
  CHECK(stranger.rc == 2);
  CHECK(stranger.out.empty());
  CHECK_THAT(stranger.err, Catch::StartsWith("otm: 'otm-nonesuch' is no otm command; this executable runs the tool "
                                             "its name names: run one of the otm-* commands in /"));
  CHECK(g_last_argv.empty());
}
