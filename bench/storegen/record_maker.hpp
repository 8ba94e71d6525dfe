// One generated clean-1.3 record. Record n of a store depends only on the
// seed and n, so a smaller store is a prefix of a larger one with the same
// seed, and a test can regenerate any record without the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "json/value.hpp"

namespace otm::bench {

// The record's identity, drawn before its body: enough to name it (links
// from later records) and to share its episode with later records.
struct RecordPlan {
  std::string type, level, vendor, arch, product, dsl, family, workload_family, technique;
  std::string id, episode_key;
  bool trace_derived = false; // cites a trace commit (held to the strict leak shapes)
};

RecordPlan plan_record(std::uint64_t seed, std::size_t n);

// The whole record, valid against clean-1.3 and passing the nine store
// gates in a store made of records 0..m (m >= n): its links name only
// records before it.
json::Value make_record(std::uint64_t seed, std::size_t n);

} // namespace otm::bench
