#include "partition/inputs.hpp"

#include <memory>

#include "cli/exit_codes.hpp"
#include "git/repository.hpp"
#include "io/file.hpp"
#include "packet/kernel_code.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"

namespace otm::partition {

std::vector<json::Value> read_ladder_rows(const std::string &path) {
  std::vector<json::Value> rows;
  std::size_t line = 0;
  json::for_each_line(path, [&](json::Value v) {
    ++line;
    if (!v.is_object() || !v.get("version").is_string() || !v.get("selection").is_string())
      throw cli::UsageError(path + ": row " + std::to_string(line) +
                            " has no `version`/`selection`; this is not otm-ladder output (run otm-ladder)");
    rows.push_back(std::move(v));
  });
  return rows;
}

json::Value read_meta(const std::filesystem::path &meta_file) {
  if (!io::is_regular_file(meta_file)) throw cli::UsageError(meta_file.string() + ": missing; run otm-ingest first");
  json::Value doc = json::parse_file(meta_file);
  if (!doc.get("meta").is_object()) throw cli::UsageError(meta_file.string() + ": no `meta` object; re-run otm-ingest");
  return doc;
}

std::function<bool(const std::string &)> snapshot_probe(const std::optional<std::filesystem::path> &trace) {
  if (!trace) return [](const std::string &) { return false; };
  auto repo = std::make_shared<git::Repository>(git::Repository::open(*trace));
  auto root = *trace;
  return [repo, root](const std::string &path) { return packet::trace_file_exists(*repo, root, path); };
}

Inputs load_inputs(const Sources &src) {
  Inputs in;
  in.rows = read_ladder_rows(src.ladder);
  in.meta = read_meta(src.meta).get("meta");
  if (io::is_regular_file(src.profiles)) in.profiles = json::parse_lines_file(src.profiles);
  add_store_inputs(in, src);
  return in;
}

void add_store_inputs(Inputs &in, const Sources &src) {
  Namespace ns{in.meta.string_or("operator_slug"), in.meta.string_or("workload_family")};
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
      for (const auto &seg : json::parse_lines_file(*src.previous)) {
        std::string id = seg.string_or("id");
        if (ns.contains(id) && seg.string_or("source_repo") == in.meta.string_or("source_repo"))
          in.known.push_back({id, seg.string_or("source_repo"), seg.string_or("version"), "previous run"});
      }
    } catch (const json::ParseError &) {
      // an unreadable previous run only loses its ids; it is overwritten below
    }
  }
  in.snapshot_exists = snapshot_probe(src.trace);
  in.prose_min_chars = src.prose_min_chars;
}

} // namespace otm::partition
