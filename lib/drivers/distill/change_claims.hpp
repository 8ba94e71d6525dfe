// What a strategy may claim from its diff, beyond the snippet: the cost of
// applying it (from the changed lines that run), a function the change text
// describes that the diff defines and nothing calls (the gain is then not
// its), and which retrieval terms the diff bears out.
//
//   record["payload"]["cost"] = cost_of(diff);              // edit_scope, risk, risk_basis
//   if (auto f = described_dead_code(diff, change)) refuse(...);
//   terms.techniques_in(change, changed_by(diff));          // code names the diff changes
#pragma once

#include <optional>
#include <string>

#include "distill/diff_reading.hpp"
#include "distill/retrieval_terms.hpp"
#include "json/value.hpp"

namespace otm::distill {

// A change that touches this many lines that run rewrites the kernel's
// architecture (a port, a new decomposition), not one of its parts.
inline constexpr std::size_t kArchitectureLines = 40;

json::Value cost_of(const DiffReading &diff);

std::optional<std::string> described_dead_code(const DiffReading &diff, const std::string &change);

// Accepts a matched retrieval term unless it is a code name the diff does
// not change. `diff` must outlive the result.
TermVocabulary::Accept changed_by(const DiffReading &diff);

} // namespace otm::distill
