// How a generated story writes its numbers: fixed decimals, measurements
// rounded as a harness prints them, and hex digits for hashes and UUIDs.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "storegen/random.hpp"

namespace otm::tracegen {

inline std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

inline double round_to(double v, int decimals) {
  double p = std::pow(10.0, decimals);
  return std::round(v * p) / p;
}

inline std::string hex(bench::Random &rng, std::size_t n) {
  static const char *digits = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += digits[rng.below(16)];
  return out;
}

} // namespace otm::tracegen
