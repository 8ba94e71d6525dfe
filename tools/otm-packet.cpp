// otm-packet: work/segments.jsonl -> packets/<seg_id>.json plus the sibling
// <seg_id>.diff or <seg_id>.py, scrubbed, with the anonymisation pre-flight
// (spec packets.md).
#include <iostream>

#include "cli/exit_codes.hpp"
#include "cli/options.hpp"
#include "cli/tool_setup.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "git/repository.hpp"
#include "io/file.hpp"
#include "packet/build.hpp"
#include "scrub/denylist.hpp"
#include "trace/trace_files.hpp"
#include "trace/trace_location.hpp"
#include "workspace/work_files.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

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

Exit status: 0 packets clean; 1 packets written but the pre-flight found
leaks; 2 cannot run (bad arguments, no trace, missing work files).
)";

} // namespace

int main(int argc, char **argv) {
  return otm::cli::run_tool("otm-packet", [&] {
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
    if (!opts.parse(argc, argv)) return otm::cli::kSuccess;
    otm::cli::refuse_positionals(opts);
    otm::packet::Filters filters;
    filters.type = opts.get("type");
    filters.seg_ids = opts.all("seg");
    std::string limit = opts.get_or("limit", "0");
    if (limit.empty() || limit.find_first_not_of("0123456789") != std::string::npos || limit.size() > 9)
      throw otm::Error(otm::ErrorKind::Usage, "--limit takes a non-negative integer, not '" + limit + "'");
    filters.limit = std::stoul(limit);

    auto [settings, config, loc] = otm::cli::trace_tool_setup(opts);
    const auto &ws = loc.workspace;
    std::string seg_path = opts.get_or("segments", ws.segments_file().string());
    if (seg_path != "-" && !otm::io::is_regular_file(seg_path))
      throw otm::Error(otm::ErrorKind::UnreadableInput, seg_path + ": missing; run otm-partition first");
    std::vector<otm::json::Value> segments;
    otm::json::for_each_line(seg_path, [&](otm::json::Value v) { segments.push_back(std::move(v)); });
    if (!otm::io::is_regular_file(ws.versions_file()))
      throw otm::Error(otm::ErrorKind::UnreadableInput,
                       ws.versions_file().string() + ": missing; run otm-ingest first");
    auto versions = otm::json::parse_lines_file(ws.versions_file());
    auto denylist = otm::scrub::Denylist::from_setting(settings.get(Setting::Denylist));
    auto repo = otm::git::Repository::open(loc.trace);
    otm::packet::VersionCommits commits(repo);
    otm::trace::TraceFiles files(loc.trace, config.limits());
    auto ctx = otm::packet::make_context(otm::workspace::read_meta(ws.meta_file()).get("meta"), repo, commits, files,
                                         &denylist, config);
    otm::cli::Progress progress("otm-packet", "packets", otm::packet::select(segments, filters).size());
    auto result = otm::packet::build_all(segments, filters, versions, ctx, ws.packets_dir(), progress.fn());
    for (const auto &p : result.packets)
      std::cout << otm::json::to_line(otm::packet::summary_line(p, ws.packets_dir())) << "\n";
    std::cout.flush();
    if (!opts.is_set("quiet") || !result.clean()) std::cerr << otm::packet::preflight_report(result);
    return result.clean() ? otm::cli::kSuccess : otm::cli::kFailure;
  });
}
