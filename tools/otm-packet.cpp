// otm-packet: work/segments.jsonl -> scrubbed packets/<seg_id>.json and their code.
// The sibling <seg_id>.diff or <seg_id>.py, with the anonymisation
// pre-flight (spec packets.md).
#include <iostream>

#include <optional>

#include "cmdline/build_info.hpp"
#include "cmdline/options.hpp"
#include "config/settings.hpp"
#include "otm_tools.hpp"
#include "packet/stage.hpp"
#include "scrub/denylist.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "trace/trace_location.hpp"

namespace {

const char *kHelp = R"(usage: otm-packet [options]

Reads work/segments.jsonl (or --segments FILE, '-' for stdin),
work/versions.jsonl and work/meta.json of the workspace, the trace's git
objects (the kernel.py diffs, the final kernel, the snapshots) and
profiles/<dir>/REPORT.md files, and the private denylist
(--denylist FILE / ATREX_WIKI_DENYLIST, never committed).

Writes <workspace>/packets/<seg_id>.json for each selected segment, plus
<seg_id>.diff (git's unified diff of kernel.py, scrubbed in comments and
docstrings only: for a strategy, from the version its gain is measured
against to its own commit; for an anti-strategy, the failed attempt) or
<seg_id>.py (a reference kernel); provenance.diff_from/diff_to name the
range. Packets carry the trace's own explanations (expected impact, causal
commit-body sentences by the configuration's causal_sentences rule, earlier
open directions the step took up) and the profiler quote of a capture that
measured the kernel, with its tool. Removes packet files of segments that
no longer exist and siblings no longer produced. One summary JSON line per
packet goes to stdout; the pre-flight report to stderr.

Refuses to let an unscrubbed identifier into the agent-facing layer: the
pre-flight scans it for paths, addresses, page paths, version ids, workload
hashes and denylisted terms, and exits 1 naming packets and tokens (all
packets are still written, for inspection).

Filters, applied in this order: --type TYPE, --seg ID (repeatable),
--limit N (0: no limit).

A rerun in which nothing it reads changed (the work files, the options,
the configuration, the denylist, this build, and every trace object and
file the last run read, recorded in .stamps/packet-run.json) while the
packets are as that run left them rebuilds nothing: it prints that run's
summary lines and report again, and says so on stderr.

Exit status: 0 packets clean; 1 packets written but the pre-flight found
leaks; 2 cannot run (bad arguments, no trace, missing work files).
)";

} // namespace

int otm_packet_main(int argc, char **argv) {
  return otm::tool::run_tool("otm-packet", [&] {
    using otm::config::Setting;
    otm::cli::Options opts("otm-packet", kHelp);
    otm::config::Settings::add_options(opts,
                                       {Setting::Trace, Setting::TraceName, Setting::TraceRoot, Setting::TraceLabel,
                                        Setting::Workspace, Setting::Denylist, Setting::ConfigFile});
    opts.value("segments", "FILE", "segments to build; '-' for stdin (default <workspace>/work/segments.jsonl)");
    opts.value("type", "TYPE", "only segments of this record type");
    opts.repeated("seg", "ID", "only this segment (repeatable)");
    opts.value("limit", "N", "at most N packets (0: no limit)");
    opts.flag("quiet", "do not print the pre-flight report");
    if (!opts.parse(argc, argv)) return otm::tool::kSuccess;
    otm::tool::refuse_positionals(opts);
    otm::packet::Filters filters;
    filters.type = opts.get("type");
    filters.seg_ids = opts.all("seg");
    std::string limit = opts.get_or("limit", "0");
    if (limit.empty() || limit.find_first_not_of("0123456789") != std::string::npos || limit.size() > 9)
      throw otm::Error(otm::ErrorKind::Usage, "--limit takes a non-negative integer, not '" + limit + "'");
    filters.limit = std::stoul(limit);

    auto [settings, config, loc] = otm::tool::trace_tool_setup(opts);
    auto denylist = otm::scrub::Denylist::from_setting(settings.get(Setting::Denylist));
    otm::packet::StageInputs in{loc.trace,
                                loc.workspace,
                                opts.get_or("segments", loc.workspace.segments_file().string()),
                                filters,
                                &denylist,
                                &config,
                                otm::cli::build_identity("otm-packet")};
    std::optional<otm::cli::Progress> progress;
    auto out = otm::packet::run_stage(in, [&](std::size_t n) {
      progress.emplace("otm-packet", "packets", n);
      return progress->fn();
    });
    std::cout << out.out;
    std::cout.flush();
    if (out.skipped && !opts.is_set("quiet"))
      std::cerr << "otm-packet: nothing it reads changed since its last run and the packets are as that run left "
                   "them ("
                << loc.workspace.packet_run_file().string() << "): nothing rebuilt\n";
    if (!opts.is_set("quiet") || !out.clean) std::cerr << out.report;
    return out.clean ? otm::tool::kSuccess : otm::tool::kFailure;
  });
}
