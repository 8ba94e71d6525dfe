#include "store/coverage.hpp"

#include <algorithm>

#include "record/store_layout.hpp"
#include "store/index_entry.hpp"
#include "store/record_view.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"

namespace otm::store {

std::size_t Coverage::records() const {
  std::size_t n = 0;
  for (const auto &[_, recs] : by_source) n += recs.size();
  return n;
}

std::vector<std::string> Coverage::other_sources(const std::string &label) const {
  std::vector<std::string> out;
  for (const auto &[source, _] : by_source)
    if (source != label) out.push_back(source);
  return out;
}

json::Value open_entry(const std::filesystem::path &root, const json::Value &entry) {
  const auto *path = entry.get("path").as_string();
  if (!path || path->empty()) return {};
  try {
    return read_record(root, *path);
  } catch (const std::exception &) {
    return {}; // a broken or escaping path is reported by the store gates, not here
  }
}

Coverage existing_coverage(const std::filesystem::path &root, const std::vector<json::Value> &entries,
                           const std::string &operator_slug) {
  Coverage cov;
  for (const auto &e : entries) {
    const auto *family = e.get("retrieval").get("scope").get("operator_family").as_string();
    if (!family || *family != operator_slug) continue;
    json::Value rec = open_entry(root, e);
    const auto &raw = rec.get("evidence").get("raw");
    std::string source = raw.get("source_repo").truthy() ? raw.get("source_repo").python_str() : kUnrecordedSource;
    const auto &ver = raw.get("version");
    const auto entry = IndexEntry::from_json(e);
    CoveredRecord item{entry.id, entry.type ? *entry.type : RecordView::shown(rec).type.value_or(""),
                       ver.is_null() ? std::string() : ver.python_str()};
    auto it = std::find_if(cov.by_source.begin(), cov.by_source.end(), [&](auto &g) { return g.first == source; });
    if (it == cov.by_source.end()) {
      cov.by_source.emplace_back(source, std::vector<CoveredRecord>{});
      it = cov.by_source.end() - 1;
    }
    it->second.push_back(std::move(item));
  }
  return cov;
}

} // namespace otm::store
