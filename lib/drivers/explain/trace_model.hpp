// A trace rebuilt in memory by the stages' own library code, so a record can
// be explained from the trace alone (issue 14, the provenance promise): the
// version rows (trace::ingest, which reads the commit subjects and the step
// records), the ladder's judgements (ladder::select), the segments
// (partition::run, numbered against the given stores as otm-partition
// numbers them) and, per segment, the packet (packet::build_one, with its
// diff range). Nothing is read from a workspace.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/settings.hpp"
#include "git/repository.hpp"
#include "ladder/ladder.hpp"
#include "packet/build.hpp"
#include "packet/kernel_code.hpp"
#include "scrub/denylist.hpp"
#include "store/record_view.hpp"
#include "trace/ingest.hpp"
#include "trace/trace_location.hpp"
#include "workspace/segment.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::explain {

class TraceModel {
public:
  // Rebuilds the trace `settings` name. When the trace does not state its
  // hardware and no setting does, `fallback_scope` (a record's
  // retrieval.scope) supplies vendor/arch/product and hardware_note() says
  // so. Throws otm::Error as the stages do (no trace, not a
  // repository, unresolvable hardware, malformed configuration).
  static TraceModel load(config::Settings settings, const config::Config &config,
                         const store::RecordView::Scope &fallback_scope = {});

  const trace::TraceLocation &location() const { return loc_; }
  const config::Config &config() const { return config_; }
  const json::Value &meta() const { return ingest_.meta.get("meta"); }
  // The whole meta.json (its `memory_variants` too).
  const json::Value &meta_file() const { return ingest_.meta; }
  const git::Repository &repo() const { return *repo_; }
  const packet::VersionCommits &commits() const { return *commits_; }
  // "" unless the hardware came from a record instead of the trace.
  const std::string &hardware_note() const { return hardware_note_; }

  // The ladder-annotated version rows, in trace order.
  const std::vector<json::Value> &rows() const { return rows_; }
  // The row of `version`, or null when the trace has none.
  const json::Value *row(const std::string &version) const;
  // The same rows' version fields, typed (workspace/version_row.hpp).
  const std::vector<workspace::VersionRow> &versions() const { return versions_; }
  const workspace::VersionRow *version_row(const std::string &version) const;
  const std::vector<json::Value> &segments() const { return segments_; }
  // One of segments(), typed (workspace/segment.hpp).
  const workspace::Segment &typed(const json::Value &segment) const;

  // The segment a record was drafted from: the one whose id is the
  // record's id, else the one of the record's type and version whose id
  // has the record id's stem (the id without "-<marker><NN>"), else the
  // only one of that type and version. nullptr when none (or several).
  const json::Value *segment_for(const store::RecordView &record) const;
  packet::Built packet_for(const json::Value &segment) const;
  // The run's re-measurements of a version's code, as packets read them.
  std::map<std::string, std::vector<workspace::TraceMeta::ReMeasurement>> re_measurements() const;

private:
  TraceModel() = default;
  trace::TraceLocation loc_;
  config::Config config_;
  trace::IngestResult ingest_;
  std::vector<json::Value> rows_, segments_;
  std::vector<workspace::VersionRow> versions_; // parallel to rows_
  std::vector<workspace::Segment> typed_;       // parallel to segments_
  std::unique_ptr<git::Repository> repo_;
  std::unique_ptr<packet::VersionCommits> commits_;
  std::unique_ptr<trace::TraceFiles> files_;
  std::unique_ptr<scrub::Denylist> denylist_;
  std::string hardware_note_;
};

} // namespace otm::explain
