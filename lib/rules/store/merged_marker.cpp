#include "store/merged_marker.hpp"

#include <utility>

#include "io/file.hpp"
#include "json/parse.hpp"

namespace otm::store {

std::filesystem::path merged_marker_path(const std::filesystem::path &record_file) {
  auto p = record_file;
  p += ".merged";
  return p;
}

std::optional<json::Value> read_merged_marker(const std::filesystem::path &record_file) {
  auto p = merged_marker_path(record_file);
  if (!io::is_regular_file(p)) return std::nullopt;
  return json::parse_file(p);
}

std::optional<Merge> last_merge(const json::Value &ledger) {
  const auto *merges = ledger.get("merges").as_array();
  if (!merges || merges->empty()) return std::nullopt;
  const auto &last = merges->back();
  Merge m;
  for (auto [key, field] : {std::pair{"action", &Merge::action}, std::pair{"target", &Merge::target},
                            std::pair{"merged_at", &Merge::merged_at}})
    if (const auto *s = last.get(key).as_string()) m.*field = *s;
  return m;
}

} // namespace otm::store
