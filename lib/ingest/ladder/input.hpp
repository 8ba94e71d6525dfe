// Reading work/versions.jsonl for the ladder: one JSON object per non-blank
// line, each with a string `version`. Anything else is a ParseError naming
// the source and the line, so the user can find the row to fix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

namespace otm::ladder {

std::vector<json::Value> parse_version_rows(std::string_view text, std::string_view source);

} // namespace otm::ladder
