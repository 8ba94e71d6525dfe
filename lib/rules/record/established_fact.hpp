// The established-fact rule for negative knowledge (spec wiki-gate.md §6,
// partition.md §3): the regexes and the record check, in one place used by
// partition's fact pre-check, the store's established-fact gate and the
// admission gate, so triage and enforcement cannot disagree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::record {

// A checkable condition named in prose (architecture, shape, dtype, toolchain).
const text::Regex &condition_regex();
// Hollow phrases that report a measurement or bookkeeping, not a cause.
const text::Regex &non_mechanism_regex();
// Words that state a cause.
const text::Regex &mechanism_regex();

inline constexpr std::size_t kMinMechanismChars = 40;
inline constexpr std::size_t kMinClaimChars = 12;

// partition.md §3: "ok" or the reason the text looks like no fact.
std::string fact_precheck(std::string_view text);

// The record-level rule (gates.md §2.9 / wiki-gate.md §2 step 1): problems
// of an anti-strategy record; empty for a passing record or another type.
std::vector<std::string> established_fact_problems(const json::Value &record);

} // namespace otm::record
