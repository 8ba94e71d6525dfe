// Step records (spec trace-format.md §3): the memory/*.json files that
// carry a version's measurements. Classification, the §3.1 fields, both
// vintages of pitfall entries, and guarded reading: a malformed file is
// reported (meta.json memory_variants, with a `why`), never fatal.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "json/value.hpp"

namespace otm::trace {

// §3.2: one pitfalls_and_fixes entry in the older triple (pitfall,
// explanation, fix) first, other keys after; strings and null unchanged.
json::Value normalise_pitfall(const json::Value &entry);

// §3.1 fields of one parsed step record, in table order, then
// `geomean_source` ("latency_us_geomean", "latency_us" or null). A field of
// the wrong type reads as its default and adds a sentence to `problems`.
json::Value step_record_fields(const std::string &file_name, const json::Value &record, std::string &problems);

// Where in a step record a version-row field is read from, as a dotted JSON
// path ("performance.latency_us_by_shape"); for `geomean_us` the path its
// row's `geomean_source` names. Empty for fields that are not read from the
// step record (memory_file, geomean_source) or unknown names. The table
// beside step_record_fields is checked against it by a test, field by field.
std::string step_record_path(std::string_view row_field, const json::Value &row = json::null_value());

struct MemoryScan {
  std::map<std::string, json::Value> records;  // version key → §3.1 fields
  json::Value variants = json::Value::array(); // meta.json memory_variants, in file order
};

// Reads <trace>/memory/*.json in file-name order.
MemoryScan scan_memory(const std::filesystem::path &trace);

} // namespace otm::trace
