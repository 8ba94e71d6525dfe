// JSON reading (simdjson). Every reader names the file it read in its error,
// so a user can find and fix the input.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error/error.hpp"
#include "io/file.hpp"
#include "json/value.hpp"

namespace otm::json {

// Input that is not valid JSON; the message names its source.
class ParseError : public Error {
public:
  explicit ParseError(const std::string &message) : Error(ErrorKind::UnreadableInput, message) {}
};

// Parses one JSON text. Invalid JSON or invalid UTF-8 throws ParseError whose
// message starts with `source`. Duplicate keys: the last value wins at the
// first key's position (as Python's json does).
Value parse(std::string_view text, std::string_view source = "<input>");

// The top level of a JSON object without building its values, for a reader
// that takes a large document's entries one at a time: each member's key
// and the text of its value, and for the member `array_key`, when it is an
// array, the text of each element instead. The views point into `text`
// (each runs to the comma or bracket after its value, whitespace included).
// Only the skeleton is checked here (every byte's UTF-8, the object's and
// the array's brackets, colons and commas, the keys): parse each value you
// use, with json/parse_part.hpp at its depth to check it as a parse of the
// whole would. nullopt when `text` is not an object; throws ParseError
// naming `source` when the skeleton is not JSON. A repeated key: each
// occurrence is listed; the last array wins. Cut by json/value_cut.hpp.
struct ObjectLayout {
  static constexpr std::size_t kMemberDepth = 1, kElementDepth = 2; // levels around each view's value
  std::vector<std::pair<std::string, std::string_view>> members;    // the others'
  std::optional<std::vector<std::string_view>> elements;            // array_key's
};
std::optional<ObjectLayout> object_layout(std::string_view text, std::string_view array_key,
                                          std::string_view source = "<input>");

// Reads and parses a whole file; unreadable files throw ParseError too.
Value parse_file(const std::filesystem::path &path);

// JSONL: one value per non-blank line. Errors name `source` and the line.
std::vector<Value> parse_lines(std::string_view text, std::string_view source = "<input>");
std::vector<Value> parse_lines_file(const std::filesystem::path &path);

// JSONL values of a stage input (a file, or stdin for "-"), read by
// io::read_input within `bounds`, calling `row` for each.
void for_each_line(const std::string &path_or_dash, const io::InputBounds &bounds,
                   const std::function<void(Value)> &row);

} // namespace otm::json
