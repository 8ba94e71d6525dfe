// Every executable of the build answers the command-line contract all otm
// tools share (docs/exit-codes.md): --help exits 0 on stdout and names what
// the tool reads and writes; --version exits 0 naming the tool and otm's
// version; an unknown option exits 2 with a message on stderr. And each has
// a manual page generated from that same --help, installed by
// `cmake --install` (component `man`, part of a plain install).
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "cmdline/build_info.hpp"
#include "cmdline/man_page.hpp"
#include "example_trace.hpp"
#include "gates/gates.hpp"
#include "io/file.hpp"

using namespace otm;
using namespace otm::testing;

namespace {

// Every otm-* executable in the build's bin directory.
std::vector<std::string> executables() {
  std::vector<std::string> out;
  for (const auto &p : io::list_dir(OTM_BIN_DIR))
    if (p.filename().string().rfind("otm-", 0) == 0) out.push_back(p.filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool names_word(const std::string &text, const std::string &word) {
  return std::regex_search(text, std::regex("\\b" + word + "\\b", std::regex::icase));
}

} // namespace

// One pass over the executables (each run costs a sanitizer start-up).
TEST_CASE("every executable: --help, --version, an unknown option, its manual page", "[cli][executables][man]") {
  auto exes = executables();
  // The build holds every tools/otm-*.cpp (and the benchmark tools).
  std::set<std::string> have(exes.begin(), exes.end());
  for (const auto &src : io::list_dir(fs::path(OTM_SOURCE_DIR) / "tools"))
    if (src.extension() == ".cpp" && src.filename().string().rfind("otm-", 0) == 0)
      CHECK(have.count(src.stem().string()));
  // One otm-gate-<name> per gate of the registry (tools/CMakeLists.txt reads
  // registry.def), and no other.
  std::size_t gate_commands = 0;
  for (const auto &exe : exes) gate_commands += exe.rfind("otm-gate-", 0) == 0;
  CHECK(gate_commands == gates::all_gates().size());
  for (const auto &g : gates::all_gates()) CHECK(have.count("otm-gate-" + g.name));
  CHECK(have.count("otm-bench-store"));
  CHECK(have.count("otm-make-trace"));
  REQUIRE(exes.size() >= 30);
  auto dir = fresh_temp_dir("executables");
  // The man component only: the executables' own install rule is older
  // than this test, and copying a sanitizer build's binaries costs a gigabyte.
  auto installed = run_in(dir, "cmake --install '" + std::string(OTM_BUILD_DIR) + "' --component man --prefix '" +
                                   (dir / "prefix").string() + "' >/dev/null");
  REQUIRE(installed.rc == 0);
  for (const auto &exe : exes) {
    INFO(exe);
    auto help = run_in(dir, bin(exe) + " --help");
    CHECK(help.rc == 0);
    CHECK(help.err.empty());
    CHECK(names_word(help.out, "usage"));
    CHECK(names_word(help.out, "reads"));
    CHECK(names_word(help.out, "writes"));
    auto version = run_in(dir, bin(exe) + " --version");
    CHECK(version.rc == 0);
    CHECK(version.out.rfind(exe + " (otm) " + cli::project_version(), 0) == 0);
    auto bad = run_in(dir, bin(exe) + " --no-such-option-xyz </dev/null");
    CHECK(bad.rc == 2);
    CHECK(bad.out.empty());
    CHECK_THAT(bad.err, Catch::Contains(exe) && Catch::Contains("--no-such-option-xyz"));
    // The manual page is exactly what the generator makes of today's --help.
    auto built = fs::path(OTM_BUILD_DIR) / "man" / "man1" / (exe + ".1");
    REQUIRE(io::is_regular_file(built));
    std::string line = version.out.substr(0, version.out.find('\n'));
    CHECK(io::read_file(built) == cli::man_page(exe, help.out, line));
    bool installed_tool = exe != "otm-bench-store" && exe != "otm-make-trace"; // benchmark tooling: never installed
    CHECK(io::is_regular_file(dir / "prefix" / "share" / "man" / "man1" / (exe + ".1")) == installed_tool);
  }
  fs::remove_all(dir);
}

// The commands are names of one executable, bin/otm (tools/driver/otm.cpp):
// each is a hard link to the file the last build wrote, the name it is run
// under picks the tool, and under any other name it is no command.
TEST_CASE("the multi-call executable: one file, every command a name of it", "[cli][executables]") {
  fs::path otm_exe = fs::path(OTM_BIN_DIR) / "otm";
  REQUIRE(io::is_regular_file(otm_exe));
  for (const auto &src : io::list_dir(fs::path(OTM_SOURCE_DIR) / "tools"))
    if (src.extension() == ".cpp" && src.filename().string().rfind("otm-", 0) == 0) {
      INFO(src.stem().string());
      CHECK(fs::equivalent(otm_exe, fs::path(OTM_BIN_DIR) / src.stem()));
    }
  for (const auto &g : gates::all_gates())
    CHECK(fs::equivalent(otm_exe, fs::path(OTM_BIN_DIR) / ("otm-gate-" + g.name)));
  auto dir = fresh_temp_dir("multicall");
  // A symbolic link is run under its own name: the tool it names runs.
  fs::create_symlink(otm_exe, dir / "otm-gate-ids");
  auto tool = run_in(dir, "./otm-gate-ids --version");
  CHECK(tool.rc == 0);
  CHECK(tool.out.rfind("otm-gate-ids (otm) " + cli::project_version(), 0) == 0);
  // Under a name that is no tool: a usage error naming where the commands
  // are, whatever the arguments.
  fs::create_symlink(otm_exe, dir / "otm-nonesuch");
  std::string bin_dir = fs::canonical(OTM_BIN_DIR).string();
  auto r = run_in(dir, "./otm-nonesuch --version");
  CHECK(r.rc == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("is no otm command") && Catch::Contains(bin_dir));
  CHECK_THAT(run_in(dir, "./otm-nonesuch").err, Catch::Contains("'otm-nonesuch'"));
  fs::remove_all(dir);
}

// Under its own name, otm is the front door, git-style: the commands listed
// from the table that makes the links, `otm COMMAND ARGS` = otm-COMMAND ARGS.
TEST_CASE("the front door: otm help, otm COMMAND ARGS, otm --version", "[cli][executables]") {
  auto dir = fresh_temp_dir("front-door");
  std::string otm = bin("otm");
  auto help = run_in(dir, otm + " --help");
  CHECK(help.rc == 0);
  CHECK(help.err.empty());
  CHECK_THAT(help.out, Catch::StartsWith("usage: otm COMMAND [ARGS...]\n"));
  // One line per command: every otm-* name in bin/ but the benchmark tools.
  std::size_t listed = 0;
  for (const auto &p : io::list_dir(OTM_BIN_DIR)) {
    std::string exe = p.filename().string();
    if (exe.rfind("otm-", 0) != 0 || exe == "otm-bench-store" || exe == "otm-make-trace") continue;
    INFO(exe);
    CHECK(std::regex_search(help.out, std::regex("\n  " + exe.substr(4) + " +[a-z'].+\n")));
    ++listed;
  }
  auto commands = help.out.find("\nCommands:\n");
  REQUIRE(commands != std::string::npos);
  CHECK(listed == static_cast<std::size_t>(std::count(help.out.begin() + commands + 11, help.out.end(), '\n')));
  CHECK_THAT(help.out, Catch::Contains("\n  gate-ids ") && Catch::Contains("one gate: ids are unique"));
  CHECK(run_in(dir, otm + " help").out == help.out);
  CHECK(run_in(dir, otm).out == help.out);
  // otm COMMAND ARGS runs otm-COMMAND ARGS; otm help COMMAND is its --help.
  auto ingest_help = run_in(dir, bin("otm-ingest") + " --help");
  REQUIRE(ingest_help.rc == 0);
  auto via_door = run_in(dir, otm + " ingest --help");
  CHECK(via_door.rc == 0);
  CHECK(via_door.out == ingest_help.out);
  CHECK(run_in(dir, otm + " help ingest").out == ingest_help.out);
  CHECK(run_in(dir, otm + " otm-ingest --help").out == ingest_help.out);
  auto gate = run_in(dir, otm + " gate-ids --version");
  CHECK(gate.rc == 0);
  CHECK(gate.out.rfind("otm-gate-ids (otm) " + cli::project_version(), 0) == 0);
  auto bad_option = run_in(dir, otm + " scrub --no-such-option-xyz </dev/null");
  CHECK(bad_option.rc == 2);
  CHECK_THAT(bad_option.err, Catch::Contains("otm-scrub") && Catch::Contains("--no-such-option-xyz"));
  auto version = run_in(dir, otm + " --version");
  CHECK(version.rc == 0);
  CHECK(version.out.rfind("otm (otm) " + cli::project_version(), 0) == 0);
  for (const std::string &cmd : {otm + " nonesuch", otm + " help nonesuch", otm + " --nonesuch"}) {
    INFO(cmd);
    auto r = run_in(dir, cmd);
    CHECK(r.rc == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("nonesuch"));
  }
  fs::remove_all(dir);
}

TEST_CASE("man_page: sections from the help text", "[cli][man]") {
  std::string help = "usage: otm-demo [--flag] FILE\n       otm-demo --other\n\nReads FILE. Writes a demo.\n\n"
                     "Table:\n  a   one\n  b   two\n\n.dot and back\\slash -x\n\nExit status: 0 ok; 2 cannot run.\n\n"
                     "Options:\n  --flag                      a flag\n  -o, --output FILE           where\n"
                     "  -h, --help                  show this help and exit\n";
  auto page = cli::man_page("otm-demo", help, "otm-demo (otm) 0.1.0");
  CHECK(page.find(".TH \"OTM-DEMO\" \"1\" \"\" \"otm\\-demo (otm) 0.1.0\" \"otm manual\"\n") != std::string::npos);
  CHECK(page.find(".SH NAME\notm\\-demo \\- Reads FILE\n") != std::string::npos);
  CHECK(page.find(".SH SYNOPSIS\n.nf\n[\\-\\-flag] FILE\notm\\-demo \\-\\-other\n.fi\n") == std::string::npos);
  CHECK(page.find("otm\\-demo [\\-\\-flag] FILE\notm\\-demo \\-\\-other\n") != std::string::npos);
  CHECK(page.find(".nf\nTable:\n  a   one\n  b   two\n.fi\n") != std::string::npos); // laid out as written
  CHECK(page.find("\\&.dot and back\\eslash \\-x\n") != std::string::npos);          // roff-safe
  CHECK(page.find(".SH \"EXIT STATUS\"\n.PP\nExit status: 0 ok; 2 cannot run.\n") != std::string::npos);
  CHECK(page.find(".TP\n\\fB\\-o,\\fR \\fB\\-\\-output\\fR \\fIFILE\\fR\nwhere\n") != std::string::npos);
  CHECK(page.find(".TP\n\\fB\\-\\-flag\\fR\na flag\n") != std::string::npos);
}
