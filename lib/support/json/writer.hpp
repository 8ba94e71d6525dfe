// Writing JSON text as it is produced, in the contract's two layouts (see
// json/write.hpp): a caller may write straight into a string instead of
// building a Value tree first. to_line and to_pretty are this writer over a
// Value, so both give the same bytes.
//
//   std::string out;
//   json::Writer w(out, json::Writer::Layout::Pretty);
//   w.begin_object().key("seg_id").value("strategy-v3").key("tags").begin_array().end_array().end_object();
//
// Strings are escaped as RapidJSON escapes them (the writer this replaces):
// '"', '\\', and control characters (\b \f \n \r \t, else \u00XX with upper-
// case hex); everything else, non-ASCII included, is copied as it is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

namespace otm::json {

class Writer {
public:
  enum class Layout {
    Line,   // ", " and ": " separators, no line breaks
    Pretty, // one space of indent per level, "," at line ends, ": " after keys
  };
  Writer(std::string &out, Layout layout) : out_(out), layout_(layout) {}

  Writer &begin_object();
  Writer &end_object();
  Writer &begin_array();
  Writer &end_array();
  // Inside an object, each value follows its key.
  Writer &key(std::string_view k);
  Writer &value(std::string_view s);
  Writer &value(const char *s) { return value(std::string_view(s)); }
  Writer &value(const std::string &s) { return value(std::string_view(s)); }
  Writer &value(std::int64_t i);
  Writer &value(int i) { return value(static_cast<std::int64_t>(i)); }
  Writer &value(std::size_t i) { return value(static_cast<std::int64_t>(i)); }
  Writer &value(double d); // Python's repr; NaN and infinities as null
  Writer &value(bool b);
  Writer &null();
  // A whole value (objects and arrays recursively).
  Writer &value(const Value &v);
  // One value's text already written in this layout (e.g. kept in an
  // index), copied as it is: the same value gives the same bytes either way.
  Writer &written(std::string_view text);

private:
  struct Level {
    bool array;
    std::size_t count; // values (and, in an object, keys) written so far
  };
  Writer &open(char bracket, bool array);
  Writer &close(char bracket);
  void prefix();
  void indent();
  void string(std::string_view s);
  std::string &out_;
  Layout layout_;
  std::vector<Level> levels_;
};

} // namespace otm::json
