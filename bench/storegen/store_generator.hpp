// A generated clean-1.3 store for benchmarks and large-store tests:
// <root>/records/<type>/<vendor>/<arch>/<dsl>/<family>/<id>.json (the
// admission gate's layout) and records/index.json with the live index
// entry of every record, sorted by id, in the pretty layout otm writes, and
// its keys index (store/index_keys.hpp), as otm writes it after a compaction.
// Deterministic: the same seed and size give the same bytes (the keys
// index aside: it is stamped with index.json's identity), and the
// records of a smaller store are the first records of a larger one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace otm::bench {

struct StoreSize {
  std::size_t records = 0;
  std::uint64_t seed = 1;
};

struct GeneratedStore {
  std::size_t records = 0;
  std::size_t record_bytes = 0; // all record files
  std::size_t index_bytes = 0;
};

// Writes the store under `root`, which must not exist or be an empty
// directory (throws io::IoError otherwise). Files are scratch-class writes
// and never flushed: bench data is reproducible from the seed.
GeneratedStore generate_store(const std::filesystem::path &root, const StoreSize &size);

} // namespace otm::bench
