// UTF-8 helpers. The contract measures every length and cut in code points.
#pragma once

#include <string>
#include <string_view>

namespace otm::text {

bool is_valid_utf8(std::string_view s);
// Replaces each invalid sequence with U+FFFD (Python's errors="replace");
// adds the number of replacements to *replaced when given.
std::string replace_invalid_utf8(std::string_view s, std::size_t *replaced = nullptr);
std::size_t code_points(std::string_view s);
// The first n code points (Python s[:n]).
std::string_view prefix_code_points(std::string_view s, std::size_t n);
// The longest prefix of at most `max_bytes` bytes that does not split a
// code point (how a limit cuts text).
std::string_view prefix_bytes(std::string_view s, std::size_t max_bytes);

// Python str.strip()/lstrip()/rstrip() with no argument (whitespace), and
// with a set of ASCII characters.
std::string_view strip(std::string_view s);
std::string_view lstrip(std::string_view s);
std::string_view rstrip(std::string_view s);
std::string_view strip_chars(std::string_view s, std::string_view chars);
std::string_view lstrip_chars(std::string_view s, std::string_view chars);
std::string_view rstrip_chars(std::string_view s, std::string_view chars);

// ASCII-only lower-casing is wrong for the contract's lower(); this is
// Unicode simple lower-casing for the scripts real traces use (Latin,
// Greek, Cyrillic), byte-identical for ASCII.
std::string to_lower(std::string_view s);
// Trimmed, ASCII lower case, every run of white space one space: two texts
// that differ only so compare equal ("one text", for repeat counts).
std::string folded(std::string_view s);
// Every white-space byte taken out: two lines of code that differ only in
// spacing or indentation compare equal ("x = f( a )" and "x=f(a)").
std::string without_whitespace(std::string_view s);

} // namespace otm::text
