// otm-explain's logic (issue 14): for one record, where every number, every
// quoted code line and its provenance come from in the trace, and how the
// derived values were derived — answered from a TraceModel (the trace
// rebuilt by the stages' own code), never from a workspace.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "explain/explanation.hpp"
#include "explain/trace_model.hpp"
#include "json/value.hpp"

namespace otm::explain {

// `workspace`, when given and holding the record's packet, is compared
// with the rebuilt packet (a note, not a failure: the trace is the truth).
Explanation explain_record(const json::Value &record, const std::string &record_file, const TraceModel &model,
                           const std::optional<std::filesystem::path> &workspace = std::nullopt);

// The record sections whose numbers are explained: the no-fabrication
// gate's audited sections, then evidence.raw.effect (the absolute
// latencies a gain is computed from).
std::vector<std::string> explained_sections();

} // namespace otm::explain
