// Version keys (spec trace-format.md §2.1, §3): `v<N>` from a commit subject,
// a memory/ file or a profiles/ directory, lower-cased. The number orders
// the versions, so a key whose number cannot be represented is refused by
// every reader instead of collapsing onto another version.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace otm::trace {

// N of "v<N>" (any case of the v; leading zeros allowed): nullopt when the
// digits are not ASCII (the patterns' \d is Unicode-aware) or N exceeds
// 2^63-1.
std::optional<std::int64_t> version_number(std::string_view key);

// Why `key` cannot be a version ("version number 99999999999999999999 is
// past 2^63-1"), "" when it can.
std::string version_key_problem(std::string_view key);

} // namespace otm::trace
