// otm-validate: all seventeen gates over a staging store (docs/tools/otm-validate.md).
#include <iostream>
#include <optional>

#include "admission/store_lock.hpp"
#include "otm_tools.hpp"

#include "cmdline/options.hpp"
#include "config/settings.hpp"
#include "gates/gate_cli.hpp"
#include "gates/gates.hpp"
#include "gates/store_gates.hpp"
#include "gates/validate_command.hpp"
#include "tool/exit_codes.hpp"
#include "tool/kept_until_exit.hpp"
#include "tool/large_heap_pages.hpp"
#include "tool/tool_setup.hpp"
#include "workspace/layout.hpp"

int otm_validate_main(int argc, char **argv) {
  otm::tool::use_large_heap_pages(true);
  return otm::tool::run_tool("otm-validate", [&] {
    otm::cli::Options opts(
        "otm-validate",
        "Runs the nine store gates and the eight trace gates over a staging store, or proves with "
        "--injection-tests that each of the seventeen fires.\n\nReads the staging records (a store directory "
        "argument, or --store / RTM_STORE), the workspace's packets and work/profiles.jsonl (--workspace), the "
        "trace (--trace) and the live store (--live). --store-gates runs the nine store gates alone in one pass over "
        "a store (the check of a live store after admission), holding the store's shared admission lock so a "
        "concurrent admission waits and the pass sees one state. Writes the report on stdout and a one-line verdict on "
        "stderr; writes no file. It refuses to pass a record it cannot check: a gate missing its input fails.\n\n"
        "With --allow-empty a store without records passes with nothing to check (the staging store of a trace whose "
        "every packet was refused, e.g. already live: Makefile.pipeline passes it).\n\n"
        "Exit: 0 all gates pass / all seventeen fired; 1 a gate failed, a gate was not proven, or no records (without "
        "--allow-empty); "
        "2 usage or unreadable input.\n\nUsage: otm-validate [options] [STORE_DIR]");
    otm::gates::add_context_options(opts);
    opts.flag("verbose", "list every finding (text format)")
        .flag("skip-store-gates", "run only the eight trace gates")
        .flag("store-gates", "run only the nine store gates, in one pass that reads each record once")
        .flag("injection-tests", "mutate a copy of a staged record once per gate and check each gate fires")
        .flag("allow-empty", "a store without records passes with nothing to check, instead of exit 1")
        .value("format", "FORMAT", "text (default), jsonl, sarif (SARIF 2.1.0) or junit (JUnit XML)")
        .value("list-gates", "SET",
               "print the names of a set of gates from the registry, one per line, and exit: all, store, trace, "
               "record (judge one record alone) or admission (run on an incoming record)");
    if (!opts.parse(argc, argv)) return 0;
    if (auto set = opts.get("list-gates")) {
      for (const auto &name : otm::gates::gate_names(*set)) std::cout << name << "\n";
      return 0;
    }
    const auto [settings, config] = otm::tool::tool_setup(opts);
    if (opts.positionals().size() > 1) throw otm::Error(otm::ErrorKind::Usage, "one staging store directory at most");
    // A live store being admitted into meanwhile (archive mode: parallel
    // traces) is read under its shared lock, so the index and the records
    // come from one state: a commit that completes between reading the index
    // and reading a record would otherwise show a mismatch that never existed.
    std::optional<otm::admission::StoreLock> lock;
    if (opts.is_set("store-gates")) {
      auto root = opts.positionals().empty() ? otm::workspace::configured_store(settings)
                                             : std::optional<std::filesystem::path>(opts.positionals()[0]);
      if (root && std::filesystem::is_directory(*root)) lock.emplace(*root, otm::admission::StoreLock::Mode::Shared);
    }
    auto &ctx = otm::tool::kept_until_exit(otm::gates::build_context(
        opts, settings, config, opts.positionals(), opts.is_set("store-gates"),
        opts.is_set("store-gates") ? otm::gates::store_gates() : std::vector<const otm::gates::GateInfo *>{}));
    otm::gates::ValidateOptions vo;
    vo.verbose = opts.is_set("verbose");
    vo.skip_store_gates = opts.is_set("skip-store-gates");
    vo.injection_tests = opts.is_set("injection-tests");
    vo.allow_empty = opts.is_set("allow-empty");
    vo.only_store_gates = opts.is_set("store-gates");
    vo.format = opts.get_or("format", "text");
    vo.store_label = ctx.store_root ? ctx.store_root->string() : "<records>";
    std::size_t gates_to_run = 0;
    for (const auto &g : otm::gates::all_gates())
      gates_to_run += !(vo.skip_store_gates && g.kind == otm::gates::GateKind::Store);
    otm::cli::Progress progress("otm-validate", "gates", gates_to_run);
    vo.progress = progress.fn();
    auto outcome = otm::gates::run_validate(ctx, vo);
    std::cout << outcome.report << std::flush;
    std::cerr << "otm-validate: " << outcome.summary << "\n";
    return outcome.exit_code;
  });
}
