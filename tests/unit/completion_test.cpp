// Shell completions from the option tables (cmdline/completion.hpp): the
// options read back from --help are the ones the table declared, and the
// generated bash script completes commands, options and values.
#include <catch2/catch.hpp>

#include "cmdline/completion.hpp"
#include "cmdline/options.hpp"
#include "example_trace.hpp"
#include "io/file.hpp"

using namespace otm;
using namespace otm::testing;

TEST_CASE("options_in_help reads back the option table as usage() prints it", "[cli][completion]") {
  cli::Options opts("otm-demo", "usage: otm-demo [options]\n\nReads nothing.");
  opts.value("trace", "DIR", "trace repository (env OTM_TRACE or RTM_TRACE)")
      .value("non-target-kernels-and-more", "K1,K2", "a long one: its help is on the next line")
      .repeated("agent-env", "NAME=VALUE", "environment for the agent")
      .flag("quiet", "no progress line")
      .value("output", "FILE", "where")
      .short_alias('o', "output");
  auto got = cli::options_in_help(opts.usage());
  REQUIRE(got.size() == 7); // and -h/--help, --version
  CHECK(got[0].name == "trace");
  CHECK(got[0].meta == "DIR");
  CHECK(got[0].help == "trace repository (env OTM_TRACE or RTM_TRACE)");
  CHECK(got[1].name == "non-target-kernels-and-more");
  CHECK(got[1].meta == "K1,K2");
  CHECK(got[2].name == "agent-env");
  CHECK(got[2].meta == "NAME=VALUE");
  CHECK(got[3].name == "quiet");
  CHECK(got[3].meta.empty());
  CHECK(got[4].name == "output");
  CHECK(got[4].alias == 'o');
  CHECK(got[5].name == "help");
  CHECK(got[6].name == "version");
}

namespace {

// The words bash would offer for `words` with the cursor on the last one.
std::string complete(const std::string &script, const std::string &words) {
  auto r = run_in(fs::temp_directory_path(),
                  "bash -c 'source \"" + script + "\"; COMP_WORDS=(" + words +
                      "); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _otm; printf \"%s\\n\" \"${COMPREPLY[@]}\"'");
  REQUIRE(r.rc == 0);
  return r.out;
}

} // namespace

TEST_CASE("the built bash and zsh completions: every command, its options, file values", "[cli][completion]") {
  std::string bash = std::string(OTM_BUILD_DIR) + "/completions/otm.bash";
  std::string zsh = std::string(OTM_BUILD_DIR) + "/completions/_otm";
  REQUIRE(io::is_regular_file(bash));
  REQUIRE(io::is_regular_file(zsh));
  CHECK(run_in(fs::temp_directory_path(), "bash -n '" + bash + "'").rc == 0);
  CHECK(complete(bash, "otm in") == "ingest\n");
  CHECK(complete(bash, "otm gate-sch") == "gate-schema\n");
  CHECK(complete(bash, "otm help gate-no-f") == "gate-no-fabrication\n");
  auto trace_options = complete(bash, "otm-ingest --trace-");
  CHECK_THAT(trace_options, Catch::Contains("--trace-name\n") && Catch::Contains("--trace-label\n") &&
                                !Catch::Contains("--workspace"));
  CHECK_THAT(complete(bash, "otm-ingest --trace /"), Catch::Contains("/tmp\n")); // a value: a file name
  CHECK(complete(bash, "otm ingest --works") == "--workspace\n");
  CHECK(complete(bash, "otm-validate --verb") == "--verbose\n");
  // Every command's options are its --help's, neither more nor less.
  std::string script = io::read_file(bash);
  for (const auto &p : io::list_dir(OTM_BIN_DIR)) {
    std::string exe = p.filename().string();
    if (exe.rfind("otm-", 0) != 0 || exe == "otm-bench-store" || exe == "otm-make-trace") continue;
    INFO(exe);
    std::string offered;
    for (const auto &o : cli::options_in_help(run_in(fs::temp_directory_path(), bin(exe) + " --help").out))
      if (o.name != "help" && o.name != "version") offered += " --" + o.name;
    CHECK(script.find("    " + exe + ") echo \"" + offered + "\" ;;\n") != std::string::npos);
    CHECK(io::read_file(zsh).find("    " + exe + ")\n") != std::string::npos);
  }
  // One #compdef line naming otm and every command (the first, alphabetically).
  CHECK(io::read_file(zsh).rfind("#compdef otm otm-archive-list otm-archive-report ", 0) == 0);
  if (run_in(fs::temp_directory_path(), "command -v zsh >/dev/null").rc == 0)
    CHECK(run_in(fs::temp_directory_path(), "zsh -n '" + zsh + "'").rc == 0);
}
