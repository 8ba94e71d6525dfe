// Sentences of trace prose, for rules that quote one sentence verbatim (a
// causal sentence of a commit body, a mechanism): split after ".", "!" or
// "?" followed by whitespace, except after the abbreviations e.g., i.e.,
// vs., cf. and approx.; and before a line that opens with a field label
// ("Correctness: PASS", "Rationale: ...", "Shapes (us): ..."): a commit
// body of one field per line is not one sentence (round 12: a mechanism
// quoting a body's shape table, verdict and template rationale as one).
// Each sentence trimmed, none empty.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::text {

std::vector<std::string> sentences(std::string_view text);

} // namespace otm::text
