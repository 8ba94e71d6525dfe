// Where the identifiers of a line of code are ([A-Za-z_][A-Za-z0-9_]*, not
// inside a longer word): the one scanner the module outline and the
// inert-code reading share.
//
//   for (auto s : code::identifier_spans("x = _TUNE_ID + 1")) name = text.substr(s.begin, s.end - s.begin);
#pragma once

#include <cctype>
#include <cstddef>
#include <string_view>
#include <vector>

namespace otm::code {

inline bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
inline bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct IdentifierSpan {
  std::size_t begin = 0, end = 0;
};

std::vector<IdentifierSpan> identifier_spans(std::string_view code);

} // namespace otm::code
