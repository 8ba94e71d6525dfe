// XXH64 (xxHash's 64-bit hash, as its specification defines it): a fast
// non-cryptographic digest, for telling whether inputs changed since the
// last run (otm-packet's run record), where SHA-256 of megabytes of work
// files cost more than the rest of a skipped run. Not for anything an
// adversary could aim at: it is easy to find two texts with one digest.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace otm::text {

class Xxh64 {
public:
  explicit Xxh64(std::uint64_t seed = 0);
  void update(std::string_view data);
  std::uint64_t digest() const;

private:
  std::array<std::uint64_t, 4> acc_{};
  std::array<unsigned char, 32> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_ = 0, seed_ = 0;
};

// XXH64 of `data` in one call.
std::uint64_t xxh64(std::string_view data, std::uint64_t seed = 0);

} // namespace otm::text
