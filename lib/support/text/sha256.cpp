#include "text/sha256.hpp"

#include <mbedtls/sha256.h>
#include <mbedtls/version.h>

#include <array>

#include "error/error.hpp"

namespace otm::text {

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, 32> digest{};
  const auto *in = reinterpret_cast<const unsigned char *>(data.data());
#if MBEDTLS_VERSION_MAJOR >= 3
  int rc = mbedtls_sha256(in, data.size(), digest.data(), 0);
#else
  int rc = mbedtls_sha256_ret(in, data.size(), digest.data(), 0);
#endif
  if (rc != 0) throw Error(ErrorKind::Internal, "SHA-256 failed (mbedcrypto error " + std::to_string(rc) + ")");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (unsigned char b : digest) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xF]);
  }
  return out;
}

} // namespace otm::text
