// Cutting a JSON document into its values by structure alone, so a reader
// of a document too large to hold can hold one value at a time and parse
// it on its own (json/parse.hpp, parse_part). Nothing inside a value is
// checked here; its parse checks it, as a parse of the whole would.
#pragma once

#include <cstddef>
#include <string_view>

namespace otm::json {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The first byte at or after `at` that is not JSON whitespace (text.size()
// when none is).
std::size_t skip_space(std::string_view text, std::size_t at);

enum class Cut {
  Complete,
  NeedMore, // `text` ends inside the value, and more of the document follows
  Malformed // no value starts there, or one ends where none can
};
struct ValueCut {
  Cut status = Cut::Malformed;
  std::size_t end = 0; // past the value, when Complete
};

// The value that starts at text[at]: a string to its closing quote, an
// array or object to its matching bracket (brackets in strings skipped), a
// scalar up to the next whitespace or structural byte. `at_end`: `text`
// runs to the end of the document.
ValueCut cut_value(std::string_view text, std::size_t at, bool at_end);

// The same for an object, calling `member(name, value)` with the extent
// ([at, end) offsets in `text`) of each member's name (quotes included) and
// value, in order; a value that is not an object is cut_value's, with no
// members. On NeedMore the members met so far were called: the caller
// starts again with more text.
struct Extent {
  std::size_t at, end;
};
template <typename Member> ValueCut cut_object(std::string_view text, std::size_t at, bool at_end, Member &&member);
// The same for an array, calling `element(value)` with each element's
// extent, in order.
template <typename Element> ValueCut cut_array(std::string_view text, std::size_t at, bool at_end, Element &&element);

namespace detail {
std::size_t string_end(std::string_view text, std::size_t at);
}

template <typename Member> ValueCut cut_object(std::string_view text, std::size_t at, bool at_end, Member &&member) {
  if (at >= text.size() || text[at] != '{') return cut_value(text, at, at_end);
  auto more = [&] { return ValueCut{at_end ? Cut::Malformed : Cut::NeedMore, 0}; };
  auto next = [&](std::size_t p) { return skip_space(text, p); };
  std::size_t p = next(at + 1);
  if (p >= text.size()) return more();
  if (text[p] == '}') return {Cut::Complete, p + 1};
  while (true) {
    if (p >= text.size()) return more();
    if (text[p] != '"') return {Cut::Malformed, 0};
    std::size_t name_end = detail::string_end(text, p);
    if (!name_end) return more();
    std::size_t q = next(name_end);
    if (q >= text.size()) return more();
    if (text[q] != ':') return {Cut::Malformed, 0};
    std::size_t v = next(q + 1);
    auto value = cut_value(text, v, at_end);
    if (value.status != Cut::Complete) return value;
    member(Extent{p, name_end}, Extent{v, value.end});
    p = next(value.end);
    if (p >= text.size()) return more();
    if (text[p] == '}') return {Cut::Complete, p + 1};
    if (text[p] != ',') return {Cut::Malformed, 0};
    p = next(p + 1);
  }
}

template <typename Element> ValueCut cut_array(std::string_view text, std::size_t at, bool at_end, Element &&element) {
  if (at >= text.size() || text[at] != '[') return cut_value(text, at, at_end);
  auto more = [&] { return ValueCut{at_end ? Cut::Malformed : Cut::NeedMore, 0}; };
  std::size_t p = skip_space(text, at + 1);
  if (p >= text.size()) return more();
  if (text[p] == ']') return {Cut::Complete, p + 1};
  while (true) {
    auto value = cut_value(text, p, at_end);
    if (value.status != Cut::Complete) return value;
    element(Extent{p, value.end});
    p = skip_space(text, value.end);
    if (p >= text.size()) return more();
    if (text[p] == ']') return {Cut::Complete, p + 1};
    if (text[p] != ',') return {Cut::Malformed, 0};
    p = skip_space(text, p + 1);
  }
}

} // namespace otm::json
