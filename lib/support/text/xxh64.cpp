#include "text/xxh64.hpp"

#include <cstring>

namespace otm::text {

namespace {

constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ULL, kP2 = 0xC2B2AE3D27D4EB4FULL, kP3 = 0x165667B19E3779F9ULL,
                        kP4 = 0x85EBCA77C2B2AE63ULL, kP5 = 0x27D4EB2F165667C5ULL;

std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// Little-endian reads, whatever the host's byte order.
std::uint64_t read64(const unsigned char *p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint32_t read32(const unsigned char *p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

std::uint64_t round(std::uint64_t acc, std::uint64_t lane) {
  acc += lane * kP2;
  acc = rotl(acc, 31);
  return acc * kP1;
}

std::uint64_t merge(std::uint64_t h, std::uint64_t acc) {
  h ^= round(0, acc);
  return h * kP1 + kP4;
}

} // namespace

Xxh64::Xxh64(std::uint64_t seed) : seed_(seed) { acc_ = {seed + kP1 + kP2, seed + kP2, seed, seed - kP1}; }

void Xxh64::update(std::string_view data) {
  const auto *p = reinterpret_cast<const unsigned char *>(data.data());
  std::size_t n = data.size();
  total_ += n;
  auto stripe = [this](const unsigned char *s) {
    for (int i = 0; i < 4; ++i) acc_[i] = round(acc_[i], read64(s + 8 * i));
  };
  if (buffered_) {
    std::size_t take = std::min(n, buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, p, take);
    buffered_ += take;
    p += take;
    n -= take;
    if (buffered_ < buffer_.size()) return;
    stripe(buffer_.data());
    buffered_ = 0;
  }
  for (; n >= 32; p += 32, n -= 32) stripe(p);
  std::memcpy(buffer_.data(), p, n);
  buffered_ = n;
}

std::uint64_t Xxh64::digest() const {
  std::uint64_t h;
  if (total_ >= 32) {
    h = rotl(acc_[0], 1) + rotl(acc_[1], 7) + rotl(acc_[2], 12) + rotl(acc_[3], 18);
    for (auto a : acc_) h = merge(h, a);
  } else {
    h = seed_ + kP5;
  }
  h += total_;
  const unsigned char *p = buffer_.data(), *end = p + buffered_;
  for (; p + 8 <= end; p += 8) {
    h ^= round(0, read64(p));
    h = rotl(h, 27) * kP1 + kP4;
  }
  if (p + 4 <= end) {
    h ^= static_cast<std::uint64_t>(read32(p)) * kP1;
    h = rotl(h, 23) * kP2 + kP3;
    p += 4;
  }
  for (; p < end; ++p) {
    h ^= *p * kP5;
    h = rotl(h, 11) * kP1;
  }
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

std::uint64_t xxh64(std::string_view data, std::uint64_t seed) {
  Xxh64 h(seed);
  h.update(data);
  return h.digest();
}

} // namespace otm::text
