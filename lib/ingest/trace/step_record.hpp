// Step records (spec trace-format.md §3): the memory/*.json files that
// carry a version's measurements. Classification, the §3.1 fields, both
// vintages of pitfall entries, and guarded reading: a malformed file is
// reported (meta.json memory_variants, with a `why`), never fatal.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "config/config.hpp"
#include "json/value.hpp"

namespace otm::trace {

// §3.2: one pitfalls_and_fixes entry in the older triple (pitfall,
// explanation, fix) first, other keys after; strings and null unchanged.
json::Value normalise_pitfall(const json::Value &entry);

// §3.1 fields of one parsed step record, in table order, then
// `geomean_source` ("latency_us_geomean", "latency_us" or null). A field of
// the wrong type reads as its default and adds a sentence to `problems`;
// pitfalls beyond `max_pitfalls` are dropped with a sentence in `limited`.
json::Value step_record_fields(const std::string &file_name, const json::Value &record, std::string &problems,
                               std::size_t max_pitfalls, std::string &limited);
inline json::Value step_record_fields(const std::string &file_name, const json::Value &record, std::string &problems) {
  std::string limited;
  return step_record_fields(file_name, record, problems, SIZE_MAX, limited);
}

// Where in a step record a version-row field is read from, as a dotted JSON
// path ("performance.latency_us_by_shape"); for `geomean_us` the path the
// row's `geomean_source` names (none when ""). Empty for fields that are not
// read from the step record (memory_file, geomean_source) or unknown names.
// The table beside step_record_fields is checked against it by a test,
// field by field.
std::string step_record_path(std::string_view row_field, std::string_view geomean_source = "");

// One file of memory/ read: the version it measures (`key`, "" when it is
// not admitted) with its §3.1 fields, and its memory_variants descriptor
// when it has one (a variant, a refusal, or a version read with defaults
// or within limits).
struct StepRecordRead {
  std::string key;
  json::Value fields;
  json::Value variant; // null when the file needs no descriptor
};
// `name` is the file name ("v3.json"), `bytes` its content. Never throws on
// content: anything malformed is a descriptor with a `why`.
StepRecordRead read_step_record(const std::string &name, std::string_view bytes, const config::Limits &limits);

struct MemoryScan {
  std::map<std::string, json::Value> records;  // version key → §3.1 fields
  json::Value variants = json::Value::array(); // meta.json memory_variants, in file order
};

class TraceFiles;
// Reads <trace>/memory/*.json in file-name order, under the trace reading
// policy (files it cannot read are the policy's skips).
MemoryScan scan_memory(const TraceFiles &files);

} // namespace otm::trace
