// The candidate summary of a record (spec wiki-gate.md §3, the table): what
// `match` shows of the incoming record and of each same-scope candidate. The
// keys index and the index journal keep each entry's summary as written
// here (summary_text), so `match` copies it instead of reading the record.
#pragma once

#include <string>

#include "json/value.hpp"

namespace otm::store {

json::Value candidate_summary(const json::Value &record);
// The summary in the line layout (json::to_line): the text `match` prints.
std::string candidate_summary_text(const json::Value &record);

// "positive", "negative" or "unknown" (the summary's gain_direction).
std::string gain_direction(const json::Value &record);

} // namespace otm::store
