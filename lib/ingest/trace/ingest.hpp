// The ingest stage (spec trace-format.md §9): one row per version, one row
// per capture, the trace's metadata, and a console summary. Later stages
// read these files; the field names and key orders are their contract.
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "trace/hardware.hpp"
#include "trace/trace_location.hpp"
#include "json/value.hpp"

namespace otm::trace {

struct IngestResult {
  std::vector<json::Value> versions; // work/versions.jsonl rows, §9.1
  std::vector<json::Value> profiles; // work/profiles.jsonl rows, §9.2
  json::Value meta;                  // work/meta.json, §9.3
  std::vector<std::string> warnings; // unreadable optional inputs
};

// The configured target: RTM_VENDOR/ARCH/PRODUCT, else the registry entry.
// Validated (a Refused Error on a value the schema does not allow).
ConfiguredTarget configured_target(const TraceLocation &loc);

// Reads the whole trace. Throws a Refused Error when the hardware cannot be
// resolved or a configured value is invalid (checked before the history is
// read).
IngestResult ingest(const TraceLocation &loc, const config::Config &config);

// §9.4, several lines ending with "\n".
std::string summary_text(const TraceLocation &loc, const IngestResult &result);

// Writes profiles.jsonl and meta.json into the workspace and the versions
// to `versions_out` ("" = workspace work/versions.jsonl, "-" = stdout),
// all atomically. Creates work/ and packets/.
void write_ingest(const TraceLocation &loc, const IngestResult &result, const std::string &versions_out);

} // namespace otm::trace
