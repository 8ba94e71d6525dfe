#include "record/id_namespace.hpp"

#include <vector>

namespace otm::record {

namespace {

std::vector<std::string_view> split_dots(std::string_view id) {
  std::vector<std::string_view> parts;
  std::size_t pos = 0;
  while (true) {
    auto dot = id.find('.', pos);
    parts.push_back(id.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos));
    if (dot == std::string_view::npos) return parts;
    pos = dot + 1;
  }
}

} // namespace

bool IdNamespace::contains(std::string_view id) const {
  auto parts = split_dots(id);
  if (parts.size() == 5 && parts[3] == operator_slug) return true;
  return parts.size() == 6 && parts[3] == workload_family && parts[4] == "anti";
}

} // namespace otm::record
