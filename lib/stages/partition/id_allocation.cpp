#include "partition/id_allocation.hpp"

#include <algorithm>

#include "record/id_format.hpp"
#include "store/coverage.hpp"

namespace otm::partition {

std::vector<KnownId> known_ids(const std::filesystem::path &root, const std::vector<json::Value> &entries,
                               const record::IdNamespace &ns, const std::string &store_name) {
  std::vector<KnownId> out;
  for (const auto &e : entries) {
    const auto *id = e.get("id").as_string();
    if (!id || !ns.contains(*id) || !record::parse_discriminator(*id)) continue;
    json::Value rec = store::open_entry(root, e);
    const auto &raw = rec.get("evidence").get("raw");
    out.push_back({*id, raw.get("source_repo").truthy() ? raw.get("source_repo").python_str() : "",
                   raw.get("version").truthy() ? raw.get("version").python_str() : "", store_name});
  }
  return out;
}

IdAllocator::IdAllocator(const std::vector<KnownId> &known, std::string source_repo)
    : known_(known), source_repo_(std::move(source_repo)) {
  for (const auto &k : known_) {
    auto d = record::parse_discriminator(k.id);
    if (!d) continue;
    if (!k.source_repo.empty() && k.source_repo == source_repo_) {
      reserved_[d->marker].insert(d->number);
    } else {
      others_.insert(k.id);
      seeds_[d->marker] = std::max(seeds_[d->marker], d->number);
    }
  }
  next_ = seeds_;
}

int IdAllocator::allocate(const std::string &stem, char marker, const std::string &version) {
  for (const auto &k : known_) {
    if (k.source_repo.empty() || k.source_repo != source_repo_ || k.version != version) continue;
    auto d = record::parse_discriminator(k.id);
    if (!d || d->marker != marker) continue;
    if (k.id.substr(0, k.id.rfind('-')) != stem) continue;
    if (others_.count(k.id) || taken_.count(k.id)) continue;
    taken_.insert(k.id);
    reused_.push_back(k.id);
    return d->number;
  }
  int &next = next_[marker];
  do ++next;
  while (reserved_[marker].count(next));
  return next;
}

} // namespace otm::partition
