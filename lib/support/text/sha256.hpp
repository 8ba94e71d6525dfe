// SHA-256 (FIPS 180-4), for recording which base schema a profile was
// generated from. Small and self-contained so no crypto library is needed.
#pragma once

#include <string>
#include <string_view>

namespace otm::text {

// Lower-case hex digest of the bytes of `data`.
std::string sha256_hex(std::string_view data);

} // namespace otm::text
