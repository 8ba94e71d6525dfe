// otm-distill: drive a distilling agent per packet, gate its records, keep what passes.
// It re-runs the agent with the findings; see docs/tools/otm-distill.md.
#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "distill/agent_driver.hpp"
#include "distill/brief.hpp"
#include "distill/gates_for_trace.hpp"
#include "distill/packet_list.hpp"
#include "io/file.hpp"
#include "otm_tools.hpp"
#include "record/store_layout.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "json/write.hpp"

using namespace otm;
using config::Setting;

namespace {

unsigned positive(const cli::Options &opts, const std::string &name, unsigned fallback) {
  auto v = opts.get(name);
  if (!v) return fallback;
  try {
    std::size_t used = 0;
    long n = std::stol(*v, &used);
    if (used == v->size() && n > 0) return static_cast<unsigned>(n);
  } catch (const std::exception &) {
  }
  throw Error(ErrorKind::Usage, "--" + name + " '" + *v + "' must be a positive integer");
}

} // namespace

int otm_distill_main(int argc, char **argv) {
  return tool::run_tool("otm-distill", [&] {
    cli::Options opts(
        "otm-distill",
        "Usage: otm-distill --agent-cmd CMD [-j N] [--max-rounds R] [--timeout S] PACKET|DIR...\n\n"
        "For each packet (<seg_id>.json + its .diff/.py; a directory means every *.json in it) runs\n"
        "`/bin/sh -c CMD` with the distillation brief, the packet and its code file on stdin (also as\n"
        "files: OTM_DISTILL_BRIEF, OTM_DISTILL_PACKET, OTM_DISTILL_CODE, OTM_DISTILL_FINDINGS), reads one\n"
        "record (or a refusal line) from its stdout, and runs the record-level and trace gates on it. On\n"
        "failure the agent runs again with the findings, up to R rounds. Writes only passing records to\n"
        "<store>/records/...; keeps refusals in <store>/reports/<slug>/refusals.jsonl and appends one line per\n"
        "packet to <store>/reports/<slug>/distill-log.jsonl (or --log). A record the gates still refuse\n"
        "after the last round, a timeout, a crash or garbage output fails that packet, never the run: it\n"
        "becomes a line of the refusal ledger naming the gate and the field (or what the agent did).\n\n"
        "Refuses to decide: anything about the record's content (the agent writes it, the gates judge it);\n"
        "it never edits a record, and never keeps one that a gate refused.\n\n"
        "Exit: 0 the run was made (every packet written, refused or failed, and logged), 2 cannot run\n"
        "(bad options, no trace, no live store, or an agent that answered on no packet at all).");
    opts.value("agent-cmd", "CMD", "the agent, run as /bin/sh -c CMD (required)");
    opts.value("jobs", "N", "packets distilled in parallel (default 1)");
    opts.short_alias('j', "jobs");
    opts.value("max-rounds", "R", "agent runs per packet, the first included (default 3)");
    opts.value("timeout", "SECONDS", "deadline of one agent run (default 600)");
    opts.value("brief", "FILE", "hand the agent this brief instead of the built-in docs/distill-brief.md");
    opts.value("slug", "SLUG", "reports/<SLUG>/ for the refusal ledger and the log (default: the trace's slug)");
    opts.value("log", "FILE", "append the per-packet log here instead");
    opts.flag("print-brief", "print the built-in brief and exit");
    config::Settings::add_options(opts, {Setting::Store, Setting::Trace, Setting::TraceLabel, Setting::Live,
                                         Setting::Denylist, Setting::ConfigFile});
    if (!opts.parse(argc, argv)) return tool::kSuccess;
    if (opts.is_set("print-brief")) {
      std::cout << distill::distill_brief_text();
      return tool::kSuccess;
    }
    const auto [settings, config] = tool::tool_setup(opts);
    auto cmd = opts.get("agent-cmd");
    if (!cmd || cmd->empty())
      throw Error(ErrorKind::Usage, "--agent-cmd is required (the command that runs the agent)");
    auto packets = distill::expand_packet_args(opts.positionals());
    if (packets.empty())
      throw Error(ErrorKind::Usage, "no packets given (pass packet files or the packets/ directory)");
    auto given = opts.get("slug");
    auto slug = given ? *given : trace::configured_trace_slug(settings).value_or("");
    if (slug.empty())
      throw Error(ErrorKind::Usage,
                  "no reports/<slug>/ for the refusal ledger and the log: give --trace DIR (its slug) or --slug SLUG");
    if (auto why = record::unsafe_component_reason(slug); !why.empty())
      throw Error(ErrorKind::Usage, "--slug '" + slug + "' " + why);

    auto store = workspace::staging_store(settings);
    distill::TraceGates gates(distill::trace_gate_inputs(settings, config, store.root));

    distill::DriverOptions o;
    o.agent_cmd = *cmd;
    o.jobs = positive(opts, "jobs", 1);
    o.max_rounds = positive(opts, "max-rounds", 3);
    o.limits.timeout = std::chrono::seconds(positive(opts, "timeout", 600));
    o.brief = opts.get("brief") ? io::read_file(*opts.get("brief")) : std::string(distill::distill_brief_text());
    cli::Progress progress("otm-distill", "packets", packets.size());
    auto outcomes = distill::distill_packets(packets, o, gates, progress.fn());
    auto log = opts.get("log") ? std::filesystem::path(*opts.get("log")) : distill::distill_log_path(store, slug);
    auto lines = distill::commit_outcomes(outcomes, store, slug, log);
    std::size_t failed = 0, written = 0, agent_down = 0;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      std::cout << json::to_line(lines[i]) << '\n';
      failed += outcomes[i].failed();
      written += outcomes[i].verdict == "written";
      agent_down += outcomes[i].agent_never_answered();
    }
    std::cerr << "otm-distill: " << written << " written, " << outcomes.size() - written - failed << " refused, "
              << failed << " failed (each one a line of reports/" << slug << "/refusals.jsonl); log " << log.string()
              << '\n';
    // One bad packet never sinks the run; an agent that answered no packet
    // at all means the run could not be made.
    if (agent_down == outcomes.size())
      throw Error(ErrorKind::Usage,
                  "the agent gave no answer on any packet (" + outcomes.front().detail + "): check --agent-cmd");
    return tool::kSuccess;
  });
}
