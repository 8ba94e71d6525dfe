// Discriminator allocation (spec partition.md §6) made stable: numbers are
// seeded from the live store AND the staging store, only from ids in this
// operator's own namespace, and a segment that an existing record already
// derives from (same id stem, same source trace, same version) gets that
// record's id back instead of a new number. So a re-run after a merge, or a
// second trace of the same operator staged beside the first, never
// renumbers or collides.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

namespace otm::partition {

// <vendor>.<product>.<dsl>.<slug>.<technique>-xNN or
// <vendor>.<product>.<dsl>.<family>.anti.<technique>-xNN.
struct Namespace {
  std::string operator_slug, workload_family;
  bool contains(std::string_view id) const;
};

struct KnownId {
  std::string id, source_repo, version;
  std::string store; // "live" or "staging"
};

// Ids of `entries` in `ns`, with the provenance of their records (opened
// relative to `root`; empty when unreadable).
std::vector<KnownId> known_ids(const std::filesystem::path &root, const std::vector<json::Value> &entries,
                               const Namespace &ns, const std::string &store_name);

class IdAllocator {
public:
  IdAllocator(const std::vector<KnownId> &known, std::string source_repo);
  // Highest discriminator per marker letter among the known ids.
  const std::map<char, int> &seeds() const { return seeds_; }
  // `stem` is the id without "-<marker><NN>". Returns the number to use:
  // a known record's (same stem, marker, source trace and version, each
  // reused once), else the next above every seed and earlier allocation.
  int allocate(const std::string &stem, char marker, const std::string &version);
  // Ids handed back from the stores, in allocation order.
  const std::vector<std::string> &reused() const { return reused_; }

private:
  std::vector<KnownId> known_;
  std::set<std::string> taken_;
  std::string source_repo_;
  std::map<char, int> seeds_, next_;
  std::vector<std::string> reused_;
};

} // namespace otm::partition
