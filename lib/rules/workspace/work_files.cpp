#include "workspace/work_files.hpp"

#include "error/error.hpp"
#include "io/file.hpp"
#include "workspace/field_reader.hpp"
#include "workspace/ladder_verdict.hpp"
#include "json/parse.hpp"

namespace otm::workspace {

std::vector<json::Value> read_ladder_rows(const std::string &path, const config::Limits &limits) {
  std::vector<json::Value> rows;
  std::size_t line = 0;
  json::for_each_line(path, limits.input_bounds(), [&](json::Value v) {
    ++line;
    if (!v.is_object() || !v.get("version").is_string() || !v.get("selection").is_string())
      throw Error(ErrorKind::UnreadableInput,
                  path + ": row " + std::to_string(line) +
                      " has no `version`/`selection`; this is not otm-ladder output (run otm-ladder)");
    // Its verdict typed here, so a stage reading one never meets a field of another type.
    if (auto verdict = LadderVerdict::from_json(v); !verdict)
      throw located(path + ": row " + std::to_string(line), verdict.error());
    rows.push_back(std::move(v));
  });
  return rows;
}

json::Value read_meta(const std::filesystem::path &meta_file) {
  if (!io::is_regular_file(meta_file))
    throw Error(ErrorKind::UnreadableInput, meta_file.string() + ": missing; run otm-ingest first");
  json::Value doc = json::parse_file(meta_file);
  if (!doc.get("meta").is_object())
    throw Error(ErrorKind::UnreadableInput, meta_file.string() + ": no `meta` object; re-run otm-ingest");
  return doc;
}

TraceMeta read_trace_meta(const std::filesystem::path &meta_file) {
  return TraceMeta::from_json(read_meta(meta_file).get("meta"));
}

} // namespace otm::workspace
