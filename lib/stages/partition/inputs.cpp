#include "partition/inputs.hpp"

#include "io/file.hpp"
#include "store/store_reader.hpp"
#include "trace/snapshot_probe.hpp"
#include "workspace/segment.hpp"
#include "workspace/work_files.hpp"
#include "json/parse.hpp"

namespace otm::partition {

Inputs load_inputs(const Sources &src) {
  Inputs in;
  in.rows = workspace::read_ladder_rows(src.ladder, src.limits);
  in.meta = workspace::read_trace_meta(src.meta);
  if (io::is_regular_file(src.profiles)) in.profiles = json::parse_lines_file(src.profiles);
  add_store_inputs(in, src);
  return in;
}

void add_store_inputs(Inputs &in, const Sources &src) {
  record::IdNamespace ns{in.meta.operator_slug, in.meta.workload_family};
  if (src.live) {
    auto entries = store::live_entries(*src.live);
    for (const auto &e : entries)
      if (const auto *id = e.get("id").as_string()) in.live_ids.push_back(*id);
    in.known = known_ids(*src.live, entries, ns, "live");
    in.coverage = store::existing_coverage(*src.live, entries, ns.operator_slug);
  }
  if (src.staging) {
    auto staged = known_ids(*src.staging, store::live_entries(*src.staging), ns, "staging");
    in.known.insert(in.known.end(), staged.begin(), staged.end());
  }
  if (src.previous && io::is_regular_file(*src.previous)) {
    // Ids this trace's last run handed out: kept for the same segments.
    try {
      for (const auto &row : json::parse_lines_file(*src.previous)) {
        auto seg = workspace::Segment::from_json(row);
        if (!seg) continue; // a row that is no segment hands back no id
        const workspace::Segment &s = seg.value();
        if (ns.contains(s.id) && s.source_repo == in.meta.source_repo)
          in.known.push_back({s.id, s.source_repo, s.version, "previous run"});
      }
    } catch (const json::ParseError &) {
      // an unreadable previous run only loses its ids; it is overwritten below
    }
  }
  in.snapshot_exists = trace::snapshot_probe(src.trace, src.limits);
  in.max_segments_per_version = src.limits.max_segments_per_version;
  in.prose_min_chars = src.prose_min_chars;
  in.levers = src.levers;
}

} // namespace otm::partition
