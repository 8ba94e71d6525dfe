#include "tool/gate_tool.hpp"

#include <iostream>
#include <string_view>

#include "cmdline/options.hpp"
#include "config/settings.hpp"
#include "gates/gate_cli.hpp"
#include "gates/gates.hpp"
#include "tool/exit_codes.hpp"
#include "tool/kept_until_exit.hpp"
#include "tool/large_heap_pages.hpp"
#include "tool/tool_setup.hpp"
#include "json/write.hpp"

namespace otm::tool {

int run_gate_tool(const std::string &tool, int argc, char **argv) {
  constexpr std::string_view kPrefix = "otm-gate-";
  const std::string gate = tool.starts_with(kPrefix) ? tool.substr(kPrefix.size()) : "";
  use_large_heap_pages();
  return run_tool(tool, [&] {
    const auto *info = gates::find_gate(gate);
    if (!info) throw Error(ErrorKind::Usage, "'" + tool + "' names no gate (otm-validate --list-gates lists them)");
    cli::Options opts(tool, "Runs the " + gate + " gate: " + info->summary +
                                ".\n\nReads records from a store directory (the one holding records/), record files, "
                                "or JSONL on stdin (-). Writes one JSON line per failure on stdout (gate, record, "
                                "file, message, token) and a one-line verdict on stderr. It decides only this gate; "
                                "a gate that lacks its input (packets, trace, live store) fails rather than passing."
                                "\n\nExit: 0 pass, 1 fail, 2 usage or unreadable input.\n\nUsage: " +
                                tool + " [options] [STORE_DIR | RECORD.json ... | -]");
    gates::add_context_options(opts);
    if (!opts.parse(argc, argv)) return 0;
    const auto [settings, config] = tool_setup(opts);
    auto &ctx = kept_until_exit(gates::build_context(opts, settings, config, opts.positionals(), false, {info}));
    auto result = gates::run_gate(*info, ctx);
    std::string out;
    for (const auto &f : result.findings) out += json::to_line(gates::to_json(f)) + "\n";
    std::cout << out << std::flush;
    if (result.passed()) {
      std::cerr << tool << ": PASS (" << ctx.records.size() << " records"
                << (result.note.empty() ? "" : "; " + result.note) << ")\n";
      return 0;
    }
    std::cerr << tool << ": FAIL (" << result.findings.size() << " finding(s)"
              << (result.note.empty() ? "" : "; " + result.note) << ")\n";
    return 1;
  });
}

} // namespace otm::tool
