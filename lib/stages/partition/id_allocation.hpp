// Discriminator allocation (spec partition.md §6) made stable. Known ids
// come from the live store, the staging store and the previous run's
// segments, only from this operator's own namespace. Ids of OTHER traces
// seed the counters (new numbers go above them); ids of THIS trace are
// handed back to the segment they derive from (same id stem, marker and
// version) and otherwise only reserved, never raising the seed. So a re-run
// after some records were merged keeps every id, and a second trace of the
// same operator staged beside the first numbers above it.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "record/id_namespace.hpp"
#include "json/value.hpp"

namespace otm::partition {

struct KnownId {
  std::string id, source_repo, version;
  std::string store; // "live", "staging" or "previous run"
};

// Ids of `entries` in `ns`, with the provenance of their records (opened
// relative to `root`; empty when unreadable).
std::vector<KnownId> known_ids(const std::filesystem::path &root, const std::vector<json::Value> &entries,
                               const record::IdNamespace &ns, const std::string &store_name);

class IdAllocator {
public:
  IdAllocator(const std::vector<KnownId> &known, std::string source_repo);
  // Highest discriminator per marker letter among other traces' ids.
  const std::map<char, int> &seeds() const { return seeds_; }
  // `stem` is the id without "-<marker><NN>". Returns the number to use:
  // this trace's known id for the same stem, marker and version (each
  // handed back once, never one another trace also holds), else the next
  // number above the seeds that no id of this trace holds.
  int allocate(const std::string &stem, char marker, const std::string &version);
  // Ids handed back (from the stores or the previous run), in allocation order.
  const std::vector<std::string> &reused() const { return reused_; }

private:
  std::vector<KnownId> known_;
  std::set<std::string> taken_;
  std::string source_repo_;
  std::map<char, int> seeds_, next_;
  std::set<std::string> others_;           // ids other traces hold
  std::map<char, std::set<int>> reserved_; // numbers this trace's ids hold
  std::vector<std::string> reused_;
};

} // namespace otm::partition
