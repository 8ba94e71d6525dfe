// Parsing one part of a larger document on its own (one value that
// json/value_cut.hpp cut out of a document too large to hold): checked
// exactly as parse() of the whole checks it there, `depth` levels down
// (simdjson's nesting limit counts the levels around it). Errors are
// parse()'s: ParseError naming `source`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/parse.hpp"

namespace otm::json {

void check_part(std::string_view text, std::size_t depth, std::string_view source);
Value parse_part(std::string_view text, std::size_t depth, std::string_view source);
// A run of a list's elements as written between its brackets (the commas
// between them included), checked as one part: the list `depth` levels
// down.
void check_elements(std::string_view elements, std::size_t depth, std::string_view source);
// A run of an object's members as written between its braces (the object
// `depth` levels down): the members named `keys`, each the value parse()
// would keep (the last of a repeated name; nullopt when absent); the others
// are checked, not built.
std::vector<std::optional<Value>> parse_members(std::string_view members, const std::vector<std::string> &keys,
                                                std::size_t depth, std::string_view source);
// The text a JSON string written as `quoted` (quotes included) stands for:
// its bytes between the quotes when they hold no escape or control byte
// (the common case, not copied), else its parse, kept in `decoded`.
std::string_view unquote(std::string_view quoted, std::string &decoded, std::string_view source);

} // namespace otm::json
