// otm-ladder: the best-so-far ratchet over work/versions.jsonl (work/ladder.jsonl).
// Spec ladder.md. Reads version rows, writes them back annotated with the
// selection; all logic is in lib/ingest/ladder.
#include <unistd.h>

#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "io/file.hpp"
#include "ladder/input.hpp"
#include "ladder/ladder.hpp"
#include "ladder/self_test.hpp"
#include "ladder/summary.hpp"
#include "otm_tools.hpp"
#include "tool/exit_codes.hpp"
#include "tool/kept_until_exit.hpp"
#include "tool/large_heap_pages.hpp"
#include "tool/tool_setup.hpp"
#include "json/write.hpp"

using namespace otm;

static const char *kHelp = R"(Usage: otm-ladder [VERSIONS.jsonl | -] [-o FILE] [--config FILE] [--summary]
       otm-ladder --self-test

Runs the best-so-far ratchet over the version rows that otm-ingest wrote
(work/versions.jsonl; '-' or no argument reads standard input) and writes the
same rows as JSONL, each with four keys appended: selection (baseline,
milestone, mega, final, deadend or rejected), reason (why it was rejected),
improve_pct (against the best-so-far it was judged against) and
best_before_us (that best-so-far). Output goes to standard output, or
atomically to FILE with -o. Thresholds come from the configuration
(data/otm-config.json, "ladder"; override with --config / OTM_CONFIG).
A summary of milestones, dead-ends and rejections grouped by reason goes to
standard error with --summary, or whenever standard error is a terminal.

Refuses to decide: whether a dead-end is a fact (partition flags, the
distiller decides), whether a step-to-step delta means anything (only a new
best-so-far counts), and whether a win its own text does not claim is real
(it is rejected and does not move the floor).

--self-test runs the spec's synthetic series and exits 1 on any difference.

Exit status: 0 success (self-test passed); 1 self-test failed;
2 unreadable or malformed input (file and line named), bad usage.
)";

int otm_ladder_main(int argc, char **argv) {
  tool::use_large_heap_pages();
  return tool::run_tool("otm-ladder", [&]() -> int {
    cli::Options opts("otm-ladder", kHelp);
    opts.value("output", "FILE", "write the annotated rows to FILE (atomically) instead of stdout")
        .short_alias('o', "output")
        .flag("summary", "print the ladder summary on stderr")
        .flag("self-test", "run the spec's synthetic series and report");
    config::Settings::add_options(opts, {config::Setting::ConfigFile});
    if (!opts.parse(argc, argv)) return tool::kSuccess;
    const auto config = tool::tool_setup(opts).config;
    const auto thresholds = config.ladder();
    const auto limits = config.limits();

    if (opts.is_set("self-test")) {
      if (!opts.positionals().empty()) throw Error(ErrorKind::Usage, "--self-test takes no input file");
      auto rep = ladder::run_self_test(thresholds);
      std::cout << rep.header << "\n";
      for (const auto &p : rep.passed) std::cout << "  ok    " << p << "\n";
      for (const auto &f : rep.failed) std::cout << "  FAIL  " << f << "\n";
      std::cout << rep.passed.size() << " passed, " << rep.failed.size() << " failed\n";
      return rep.ok() ? tool::kSuccess : tool::kFailure;
    }
    if (opts.positionals().size() > 1) throw Error(ErrorKind::Usage, "expected at most one input file (see --help)");
    const std::string input = opts.positionals().empty() ? "-" : opts.positionals()[0];
    const std::string source = input == "-" ? "<stdin>" : input;
    const std::string text = io::read_input(input, limits.input_bounds());
    // Held until exit: freeing every row one by one just before the process
    // ends would cost more than writing them.
    auto &rows = tool::kept_until_exit(ladder::parse_version_rows(text, source));
    auto result = ladder::select(rows, thresholds);
    ladder::annotate_in_place(rows, result);
    std::string out;
    out.reserve(text.size() + text.size() / 4);
    json::append_lines(out, rows);
    std::string dest = opts.get_or("output", "-");
    io::write_output(dest, out, io::FileClass::Scratch);
    if (dest != "-") io::sync_file_system(dest);
    if (opts.is_set("summary") || isatty(STDERR_FILENO)) std::cerr << ladder::summary_text(rows, result);
    return tool::kSuccess;
  });
}
