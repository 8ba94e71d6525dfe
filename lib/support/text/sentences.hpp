// Sentences of trace prose, for rules that quote one sentence verbatim (a
// causal sentence of a commit body, a mechanism): split after ".", "!" or
// "?" followed by whitespace, except after the abbreviations e.g., i.e.,
// vs., cf. and approx.; each sentence trimmed, none empty.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::text {

std::vector<std::string> sentences(std::string_view text);

} // namespace otm::text
