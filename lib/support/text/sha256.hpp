// SHA-256 (FIPS 180-4): the admission journal's file hashes, the profile's
// base-schema digest, the slug's tag. From mbedcrypto, which libgit2
// already brings (docs/dependencies.md).
#pragma once

#include <string>
#include <string_view>

namespace otm::text {

// Lower-case hex digest of the bytes of `data`.
std::string sha256_hex(std::string_view data);

} // namespace otm::text
