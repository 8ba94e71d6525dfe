// A seeded, platform-independent random source for generated test data:
// SplitMix64 and integer arithmetic only (the standard distributions are
// implementation-defined, so the same seed would give other stores on
// another standard library).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace otm::bench {

class Random {
public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  // An independent stream for item `n` of stream `seed` (record n of a store).
  static Random stream(std::uint64_t seed, std::uint64_t n) {
    Random r(seed ^ (0x9E3779B97F4A7C15ULL * (n + 1)));
    r.next();
    return r;
  }

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n > 0); the modulo bias is irrelevant for test data.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  // Uniform in [lo, hi].
  std::size_t between(std::size_t lo, std::size_t hi) { return lo + below(hi - lo + 1); }
  // True with probability percent / 100.
  bool chance(unsigned percent) { return below(100) < percent; }
  // An index drawn with the given integer weights.
  std::size_t weighted(const std::vector<unsigned> &weights) {
    std::size_t total = 0;
    for (auto w : weights) total += w;
    std::size_t x = below(total);
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (x < weights[i]) return i;
      x -= weights[i];
    }
    return weights.size() - 1;
  }
  template <typename T> const T &pick(const std::vector<T> &items) { return items[below(items.size())]; }
  // A length with the skew of the real store's text fields: most near the
  // median, a long tail up to `max`.
  std::size_t skewed_length(std::size_t min, std::size_t median, std::size_t max) {
    std::size_t u = below(1000);
    if (u < 500) return min + (median - min) * (300 + below(701)) / 1000;
    if (u < 900) return median + (median * below(1001)) / 1000;
    std::size_t tail = max > 2 * median ? max - 2 * median : 1;
    std::size_t r = below(1001);
    return 2 * median + tail * r * r / 1'000'000 * r / 1000;
  }

private:
  std::uint64_t state_;
};

} // namespace otm::bench
