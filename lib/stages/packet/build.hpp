// Building the packets directory (spec packets.md): filters, one packet and
// sibling file per segment, the pre-flight, and the removal of stale files,
// so a packet of a segment that no longer exists (or a sibling that is no
// longer produced) is never audited.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cmdline/progress.hpp"
#include "config/config.hpp"
#include "packet/packet.hpp"
#include "workspace/segment.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::packet {

struct Filters {
  std::optional<std::string> type;  // --type
  std::vector<std::string> seg_ids; // --seg (repeatable)
  std::size_t limit = 0;            // --limit (0: none)
};

// The context packets of one trace are built in: `meta_file` (the whole
// work/meta.json: its "meta" object and its `memory_variants`), the trace's repository and commits (which must
// outlive the context), its working tree read under the reading policy
// (`files`, which must outlive it too), and the configuration's schema and
// rules.
Context make_context(const json::Value &meta_file, const git::Repository &repo, const VersionCommits &commits,
                     const trace::TraceFiles &files, const scrub::Denylist *denylist, const config::Config &config);

// --type, then --seg, then --limit, in that order. The segments are
// work/segments.jsonl's rows, typed (workspace::read_segments).
std::vector<workspace::Segment> select(const std::vector<workspace::Segment> &segments, const Filters &f);
// How many select() keeps, without copying them.
std::size_t count_selected(const std::vector<workspace::Segment> &segments, const Filters &f);

// A packet as build_all wrote it (its JSON and code file are on disk; the
// packet's value is not kept).
struct Written {
  std::string seg_id;
  std::string code_name;           // "<seg_id>.diff" / "<seg_id>.py"; empty when none
  std::vector<record::Leak> leaks; // pre-flight hits in the agent-facing layer
  std::string summary;             // its stdout line (summary_line), without the newline
};

struct BuildResult {
  std::vector<Written> packets;     // in segment order
  std::vector<std::string> removed; // stale files deleted
  bool clean() const;
};

// Builds the selected segments' packets into `dir` (each written as soon
// as it is built, on the thread that built it; published together). Version
// rows are looked up by `version`. Stale files: every <stem>.json/.diff/.py whose stem is not
// a seg_id of `all_segments`, and the sibling of a rebuilt packet that this
// build did not produce, are removed.
BuildResult build_all(const std::vector<workspace::Segment> &all_segments, const Filters &filters,
                      const std::vector<workspace::VersionRow> &version_rows, const Context &ctx,
                      const std::filesystem::path &dir, const cli::ProgressFn &progress = {});

// One segment's packet, in memory: its version row looked up by `version`
// and the directions it took up, exactly as build_all builds it.
Built build_one(const workspace::Segment &segment, const std::vector<workspace::VersionRow> &version_rows,
                const Context &ctx);

// One stdout JSONL line per packet (without its newline).
std::string summary_line(const Built &b, const std::filesystem::path &dir);
// The console report of the pre-flight (up to 8 packets, 4 hits each).
std::string preflight_report(const BuildResult &r);

} // namespace otm::packet
