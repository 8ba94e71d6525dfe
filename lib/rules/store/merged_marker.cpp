#include "store/merged_marker.hpp"

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

} // namespace otm::store
