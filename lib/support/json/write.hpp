// JSON writing (RapidJSON handlers) in the two layouts of the contract:
//  - a line: ", " and ": " separators, for JSONL rows and one-line outputs;
//  - pretty: one space of indent per level, "," at line ends, ": " after
//    keys, a final newline; for meta, packets, records, indexes, profiles.
// Non-ASCII is written as-is; floats in Python's repr (59.14, 10.0, 1e-05);
// NaN and infinities, which JSON cannot hold, are written as null.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "json/value.hpp"

namespace otm::json {

std::string to_line(const Value &v);   // no trailing newline
std::string to_pretty(const Value &v); // ends with "\n"
std::string quote(std::string_view s); // a JSON string literal
// Whether quote(s) is s between two quotes: no byte the writer escapes
// (control characters, '"', '\\'). A search of the written text can then
// look at s itself.
bool written_as_is(std::string_view s);

// A value in the line layout built piece by piece, so that parts already
// written (by to_line, e.g. kept in a cache) are copied in as they are
// instead of being parsed and written again. The separators are
// to_line's: the same Value gives the same bytes either way.
class LineBuilder {
public:
  LineBuilder();
  ~LineBuilder();
  LineBuilder(const LineBuilder &) = delete;
  LineBuilder &operator=(const LineBuilder &) = delete;

  void start_object();
  void end_object();
  void start_array();
  void end_array();
  void key(std::string_view k);
  void value(const Value &v);
  // One value's text as to_line wrote it, copied as is.
  void written(std::string_view line_text);
  // Room for `bytes` of text, so the line grows no more.
  void reserve(std::size_t bytes);
  // The text built since the last drain, handed to `sink` and then dropped
  // (its buffer kept): a line of tens of megabytes written in pieces.
  std::size_t pending() const;
  void drain(const std::function<void(std::string_view)> &sink);
  // The text built since the last drain (the builder is done with).
  std::string take();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace otm::json
