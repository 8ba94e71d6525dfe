// JSON writing (json/writer.hpp) in the two layouts of the contract:
//  - a line: ", " and ": " separators, for JSONL rows and one-line outputs;
//  - pretty: one space of indent per level, "," at line ends, ": " after
//    keys, a final newline; for meta, packets, records, indexes, profiles.
// Non-ASCII is written as-is; floats in Python's repr (59.14, 10.0, 1e-05);
// NaN and infinities, which JSON cannot hold, are written as null.
#pragma once

#include <string>
#include <vector>

#include "json/value.hpp"

namespace otm::json {

std::string to_line(const Value &v); // no trailing newline
// to_line(v) appended to `out`: a JSONL file built row by row without a
// string per row.
void append_line(std::string &out, const Value &v);
// Each of `rows` as a line ending in "\n", appended to `out`: a JSONL file.
void append_lines(std::string &out, const std::vector<Value> &rows);
std::string to_lines(const std::vector<Value> &rows);
std::string to_pretty(const Value &v); // ends with "\n"
std::string quote(std::string_view s); // a JSON string literal
// Whether quote(s) is s between two quotes: no byte the writer escapes
// (control characters, '"', '\\'). A search of the written text can then
// look at s itself.
bool written_as_is(std::string_view s);

} // namespace otm::json
