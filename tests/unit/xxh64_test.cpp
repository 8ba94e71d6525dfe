// text::Xxh64 against digests of the reference xxHash implementation (XXH64
// of libxxhash 0.8.1), in one call and fed in pieces.
#include <catch2/catch.hpp>

#include <string>

#include "text/xxh64.hpp"

using otm::text::Xxh64;
using otm::text::xxh64;

namespace {

std::string bytes(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(i & 0xFF));
  return s;
}

} // namespace

TEST_CASE("xxh64 gives the reference digests", "[text][xxh64]") {
  constexpr std::uint64_t kSeed = 0x9E3779B97F4A7C15ULL;
  CHECK(xxh64("") == 0xef46db3751d8e999ULL);
  CHECK(xxh64("", kSeed) == 0xc4349fc93c010000ULL);
  CHECK(xxh64("a") == 0xd24ec4f1a98c6e5bULL);
  CHECK(xxh64("a", kSeed) == 0x9a7c6d2ea45568c9ULL);
  CHECK(xxh64("abc") == 0x44bc2cf5ad770999ULL);
  CHECK(xxh64("abc", kSeed) == 0x2ed0f59d6b43ac8bULL);
  CHECK(xxh64(bytes(31)) == 0xc346d2b59b4d8ee1ULL);
  CHECK(xxh64(bytes(31), kSeed) == 0xf3da6d05709c035dULL);
  CHECK(xxh64(bytes(32)) == 0xcbf59c5116ff32b4ULL);
  CHECK(xxh64(bytes(32), kSeed) == 0xa1c89217e9d50750ULL);
  CHECK(xxh64(bytes(33)) == 0x0c535d1acafb8eadULL);
  CHECK(xxh64(bytes(33), kSeed) == 0xe6a3c00cd6e74075ULL);
  std::string long_text = bytes(256) + bytes(256) + bytes(256) + "xyz";
  CHECK(xxh64(long_text) == 0xe921a1b45bd779f8ULL);
  CHECK(xxh64(long_text, kSeed) == 0x179ca0201a65d20eULL);
}

TEST_CASE("xxh64 fed in pieces equals one call", "[text][xxh64]") {
  std::string text = bytes(256) + bytes(256) + bytes(256) + "xyz";
  for (std::size_t piece : {1, 3, 7, 31, 32, 33, 100, 771}) {
    Xxh64 h;
    for (std::size_t at = 0; at < text.size(); at += piece) h.update(std::string_view(text).substr(at, piece));
    INFO("pieces of " << piece);
    CHECK(h.digest() == 0xe921a1b45bd779f8ULL);
  }
}
