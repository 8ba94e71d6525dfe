#include "trace/dsl.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace otm::trace {
namespace {

// ASCII letters fold to lower case; every other byte compares as is (the
// keywords are ASCII).
bool at(std::string_view s, std::size_t i, std::string_view lit, bool fold) {
  if (s.size() - i < lit.size()) return false;
  for (std::size_t k = 0; k < lit.size(); ++k) {
    char c = s[i + k];
    if (fold && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lit[k]) return false;
  }
  return true;
}

// A line that is only a Python comment says nothing about the code (e.g.
// "# ported from the triton version"). C preprocessor lines inside embedded
// CUDA/HIP sources start with '#' too and are code.
// `line` runs from the line's start (its end is not needed).
bool is_comment_line(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i == line.size() || line[i] != '#') return false;
  static const std::array<std::string_view, 11> kDirectives = {
      "include", "define", "pragma", "ifdef", "ifndef", "endif", "else", "elif", "undef", "error", "if"};
  std::string_view rest = line.substr(i + 1);
  for (auto d : kDirectives)
    if (rest.starts_with(d)) return false;
  return true;
}

// What one block of 16 bytes holds: `starts`, bit k set when bytes k and
// k+1, ASCII letters folded to lower case ('_' folds to 0x7F), are the first
// two bytes of a keyword (gl, cu, cp, im, lo, __, hi, tr: a superset of
// where one starts; the caller checks each); `newlines`, bit k set when
// byte k is '\n'. Reads p[0..17).
struct BlockMarks {
  std::uint32_t starts = 0, newlines = 0;
};

BlockMarks block_marks(const unsigned char *p) {
#if defined(__SSE2__)
  const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
  const __m128i fold = _mm_set1_epi8(0x20);
  const __m128i a = _mm_or_si128(raw, fold);
  const __m128i b = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 1)), fold);
  auto is = [](__m128i v, char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
  auto pair = [&](char x, __m128i second) { return _mm_and_si128(is(a, x), second); };
  __m128i m = pair('g', is(b, 'l'));
  m = _mm_or_si128(m, pair('c', _mm_or_si128(is(b, 'u'), is(b, 'p'))));
  m = _mm_or_si128(m, pair('i', is(b, 'm')));
  m = _mm_or_si128(m, pair('l', is(b, 'o')));
  m = _mm_or_si128(m, pair('h', is(b, 'i')));
  m = _mm_or_si128(m, pair('t', is(b, 'r')));
  m = _mm_or_si128(m, pair('\x7f', is(b, '\x7f')));
  return {static_cast<std::uint32_t>(_mm_movemask_epi8(m)),
          static_cast<std::uint32_t>(_mm_movemask_epi8(is(raw, '\n')))};
#else
  BlockMarks marks;
  for (int k = 0; k < 16; ++k) {
    const int x = p[k] | 0x20, y = p[k + 1] | 0x20;
    const bool hit = (x == 'g' && y == 'l') || (x == 'c' && (y == 'u' || y == 'p')) || (x == 'i' && y == 'm') ||
                     (x == 'l' && y == 'o') || (x == 'h' && y == 'i') || (x == 't' && y == 'r') ||
                     (x == 0x7f && y == 0x7f);
    marks.starts |= static_cast<std::uint32_t>(hit) << k;
    marks.newlines |= static_cast<std::uint32_t>(p[k] == '\n') << k;
  }
  return marks;
#endif
}

} // namespace

// The reference's tests, in its order of precedence:
//   gluon (case-sensitive) > (?i)cutlass\.cute|import cutlass|cute\.jit|cutedsl
//   > load_inline|__global__|cpp_extension|hipcc > triton
// done as one pass over the source (ingest runs this for every distinct
// kernel.py blob; regex and memmem passes dominated its profile, then a
// byte-by-byte pass did): 16 bytes at a time find the line breaks and where
// a keyword may start, and only there are the line's comment status (once
// per line) and the keyword checked.
std::string detect_dsl(std::string_view src) {
  if (src.empty()) return "any";
  bool cute = false, cuda = false, triton = false;
  const auto *p = reinterpret_cast<const unsigned char *>(src.data());
  const std::size_t n = src.size();
  std::size_t line_start = 0;
  enum class Line { Unknown, Comment, Code } line = Line::Unknown;
  // False once a keyword decides the answer ("gluon").
  auto check = [&](std::size_t i) {
    if (line == Line::Unknown) line = is_comment_line(src.substr(line_start)) ? Line::Comment : Line::Code;
    if (line == Line::Comment) return true;
    switch (p[i]) {
    case 'g':
      if (at(src, i, "gluon", false)) return false;
      break;
    case 'c':
    case 'C':
      cute = cute || at(src, i, "cutlass.cute", true) || at(src, i, "cute.jit", true) || at(src, i, "cutedsl", true);
      cuda = cuda || at(src, i, "cpp_extension", false);
      break;
    case 'i':
    case 'I': cute = cute || at(src, i, "import cutlass", true); break;
    case 'l': cuda = cuda || at(src, i, "load_inline", false); break;
    case '_': cuda = cuda || at(src, i, "__global__", false); break;
    case 'h': cuda = cuda || at(src, i, "hipcc", false); break;
    case 't': triton = triton || at(src, i, "triton", false); break;
    default: break;
    }
    return true;
  };
  // The marks of a block, in order ('\n' is never a start).
  auto scan = [&](const unsigned char *block, std::size_t block_at) {
    const BlockMarks marks = block_marks(block);
    for (std::uint32_t m = marks.starts | marks.newlines; m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      if (marks.newlines >> k & 1) {
        line_start = block_at + static_cast<std::size_t>(k) + 1;
        line = Line::Unknown;
      } else if (!check(block_at + static_cast<std::size_t>(k))) {
        return false;
      }
    }
    return true;
  };
  // Blocks of 16; the last (fewer) bytes from a copy padded with zeros,
  // which neither start a keyword nor break a line.
  std::size_t i = 0;
  for (; i + 17 <= n; i += 16)
    if (!scan(p + i, i)) return "gluon";
  unsigned char tail[17] = {};
  std::memcpy(tail, p + i, n - i);
  if (!scan(tail, i)) return "gluon";
  if (cute) return "cutedsl";
  if (cuda) return "cuda";
  if (triton) return "triton";
  return "any";
}

} // namespace otm::trace
