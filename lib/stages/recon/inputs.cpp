#include "recon/inputs.hpp"

#include "error/error.hpp"
#include "io/file.hpp"
#include "store/store_reader.hpp"
#include "trace/snapshot_probe.hpp"
#include "workspace/layout.hpp"
#include "workspace/work_files.hpp"
#include "json/parse.hpp"

namespace otm::recon {

Inputs load_inputs(const Sources &src, const config::Config &config) {
  Inputs in;
  in.rows = workspace::read_ladder_rows(src.ladder, config.limits());
  in.meta_file = workspace::read_meta(src.meta);
  in.meta = workspace::TraceMeta::from_json(in.meta_file.get("meta"));
  if (!io::is_regular_file(src.profiles))
    throw Error(ErrorKind::UnreadableInput, src.profiles.string() + ": missing; run otm-ingest first");
  in.profiles = json::parse_lines_file(src.profiles);
  if (src.live) {
    if (!io::is_directory(workspace::records_dir(*src.live)))
      throw Error(ErrorKind::Usage, src.live->string() + ": not a store (no records/ directory); point --live at the "
                                                         "directory that holds records/");
    in.live = src.live->string();
    in.live_entries = store::live_entries(*src.live);
    in.coverage = store::existing_coverage(*src.live, in.live_entries, in.meta.operator_slug);
  }
  in.non_target_kernels = config.non_target_kernels();
  in.thresholds = config.ladder();
  if (src.trace) in.snapshot_exists = trace::snapshot_probe(src.trace, config.limits());
  return in;
}

} // namespace otm::recon
