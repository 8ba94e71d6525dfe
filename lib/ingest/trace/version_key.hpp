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

// The version prefix of a commit subject (§2.1), `(?i)^(v\d+)\s*:`: the
// `v<N>` as written (callers lower-case it), nullopt when the subject has
// none. The one place the pattern is spelled: ingest and the packet
// builder's commit lookup both call it.
std::optional<std::string> subject_version_prefix(std::string_view subject);

// N of "v<N>" (any case of the v; leading zeros allowed): nullopt when the
// digits are not ASCII (the patterns' \d is Unicode-aware) or N exceeds
// 2^63-1.
std::optional<std::int64_t> version_number(std::string_view key);

// Why `key` cannot be a version ("version number 99999999999999999999 is
// past 2^63-1"), "" when it can.
std::string version_key_problem(std::string_view key);

} // namespace otm::trace
