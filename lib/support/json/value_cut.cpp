#include "json/value_cut.hpp"

#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace otm::json {

namespace detail {

// Past the closing quote of the string whose opening quote is at `at`, or
// 0 when `text` ends first. An escaped quote has an odd run of
// backslashes before it.
std::size_t string_end(std::string_view text, std::size_t at) {
  std::size_t from = at + 1;
  while (from < text.size()) {
    const void *q = std::memchr(text.data() + from, '"', text.size() - from);
    if (!q) return 0;
    std::size_t quote = static_cast<const char *>(q) - text.data();
    std::size_t slashes = 0;
    while (quote - slashes > at + 1 && text[quote - slashes - 1] == '\\') ++slashes;
    if (slashes % 2 == 0) return quote + 1;
    from = quote + 1;
  }
  return 0;
}

} // namespace detail

namespace {

using detail::string_end;

bool ends_scalar(char c) {
  switch (c) {
  case ',':
  case ':':
  case ']':
  case '}':
  case '[':
  case '{':
  case '"': return true;
  default: return is_space(c);
  }
}

// The first of '"', '[', ']', '{', '}' at or after `i` (text.size() when
// none is): sixteen bytes at a time, as most of a container is neither
// (the one-pass index scan cuts every entry of a 240 MB index).
std::size_t next_bracket_or_quote(std::string_view text, std::size_t i) {
#ifdef __SSE2__
  // '[' and ']' are '{' and '}' with bit 0x20 clear.
  const __m128i quote = _mm_set1_epi8('"'), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'),
                bit = _mm_set1_epi8(0x20);
  for (; i + 16 <= text.size(); i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(text.data() + i));
    __m128i folded = _mm_or_si128(v, bit);
    __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, quote),
                               _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)));
    if (int mask = _mm_movemask_epi8(hit)) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' || c == '[' || c == ']' || c == '{' || c == '}') return i;
  }
  return text.size();
}

} // namespace

std::size_t skip_space(std::string_view text, std::size_t at) {
  while (at < text.size() && is_space(text[at])) ++at;
  return at;
}

ValueCut cut_value(std::string_view text, std::size_t at, bool at_end) {
  auto more = [&] { return ValueCut{at_end ? Cut::Malformed : Cut::NeedMore, 0}; };
  if (at >= text.size()) return more();
  char c = text[at];
  if (c == '"') {
    std::size_t end = string_end(text, at);
    return end ? ValueCut{Cut::Complete, end} : more();
  }
  if (c == '[' || c == '{') {
    std::size_t depth = 0;
    for (std::size_t i = next_bracket_or_quote(text, at); i < text.size(); i = next_bracket_or_quote(text, i + 1)) {
      switch (text[i]) {
      case '"':
        if (!(i = string_end(text, i))) return more();
        --i;
        break;
      case '[':
      case '{': ++depth; break;
      default: // ']' or '}'
        if (--depth == 0) return {Cut::Complete, i + 1};
        break;
      }
    }
    return more();
  }
  if (ends_scalar(c)) return {Cut::Malformed, 0};
  std::size_t i = at;
  while (i < text.size() && !ends_scalar(text[i])) ++i;
  if (i == text.size() && !at_end) return {Cut::NeedMore, 0};
  return {Cut::Complete, i};
}

} // namespace otm::json
