// otm-scrub: the write-side anonymiser on standard input (spec scrubbing.md).
#include <iostream>

#include "cmdline/options.hpp"
#include "config/settings.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "scrub/denylist.hpp"
#include "scrub/scrubber.hpp"
#include "scrub/self_test.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"

namespace {

const char *kHelp = R"(usage: otm-scrub [options] [FILE|-]

Reads text from FILE or standard input and the private denylist
(--denylist FILE / ATREX_WIKI_DENYLIST). Writes the scrubbed text to
standard output: as prose (leak shapes, trace references, version ids,
workload hashes relabelled shape-N, grammar tidy-up), or with --code as
Python source or a unified diff of one, where only comments and docstrings
change.

--self-test runs the specification's fifteen checks instead and prints one
line per check.

Refuses nothing: it rewrites; otm-packet's pre-flight is the check.

Exit status: 0 written / all self-test checks passed; 1 a self-test check
failed; 2 bad arguments or unreadable input.
)";

} // namespace

int otm_scrub_main(int argc, char **argv) {
  return otm::tool::run_tool("otm-scrub", [&] {
    using otm::config::Setting;
    otm::cli::Options opts("otm-scrub", kHelp);
    otm::config::Settings::add_options(opts, {Setting::Denylist, Setting::ConfigFile});
    opts.flag("code", "scrub as code: comments and docstrings only");
    opts.flag("self-test", "run the specification's self-test");
    if (!opts.parse(argc, argv)) return otm::tool::kSuccess;
    if (opts.is_set("self-test")) {
      auto r = otm::scrub::run_self_test();
      for (const auto &p : r.passed) std::cout << "ok    " << p << "\n";
      for (const auto &f : r.failed) std::cout << "FAIL  " << f << "\n";
      std::cout << r.passed.size() << " passed, " << r.failed.size() << " failed\n";
      return r.ok() ? otm::tool::kSuccess : otm::tool::kFailure;
    }
    if (opts.positionals().size() > 1) throw otm::Error(otm::ErrorKind::Usage, "at most one input file");
    const auto [settings, config] = otm::tool::tool_setup(opts);
    auto denylist = otm::scrub::Denylist::from_setting(settings.get(Setting::Denylist));
    std::string input = otm::io::read_input(opts.positionals().empty() ? "-" : opts.positionals().front(),
                                            config.limits().input_bounds());
    otm::scrub::Scrubber s(&denylist);
    std::cout << (opts.is_set("code") ? s.code(input) : s.prose(input) + "\n");
    return otm::tool::kSuccess;
  });
}
