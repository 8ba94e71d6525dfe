#include "trace/dsl.hpp"

#include <array>
#include <cstdint>
#include <cstring>

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

} // namespace

// The reference's tests, in its order of precedence:
//   gluon (case-sensitive) > (?i)cutlass\.cute|import cutlass|cute\.jit|cutedsl
//   > load_inline|__global__|cpp_extension|hipcc > triton
// done as one pass over the source (ingest runs this for every distinct
// kernel.py blob; regex and memmem passes dominated its profile).
std::string detect_dsl(std::string_view src) {
  if (src.empty()) return "any";
  // Candidate starts by their first two bytes (an 8 KB bitset, so it stays
  // in L1): far fewer false hits than by first byte in code full of '_'.
  static const std::array<std::uint64_t, 1024> kStart = [] {
    std::array<std::uint64_t, 1024> t{};
    auto add = [&t](char a, char b) {
      unsigned k = static_cast<unsigned char>(a) << 8 | static_cast<unsigned char>(b);
      t[k >> 6] |= std::uint64_t{1} << (k & 63);
    };
    for (auto pair : {"gl", "cp", "lo", "__", "hi", "tr"}) add(pair[0], pair[1]);
    for (char a : {'c', 'C'})
      for (char b : {'u', 'U'}) add(a, b);
    for (char a : {'i', 'I'})
      for (char b : {'m', 'M'}) add(a, b);
    return t;
  }();
  bool cute = false, cuda = false, triton = false;
  const auto *p = reinterpret_cast<const unsigned char *>(src.data());
  const std::size_t n = src.size();
  std::size_t line_start = 0;
  bool comment = is_comment_line(src);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    unsigned k = p[i] << 8 | p[i + 1];
    if (p[i] == '\n') {
      line_start = i + 1;
      comment = is_comment_line(src.substr(line_start));
      continue;
    }
    if (!(kStart[k >> 6] >> (k & 63) & 1) || comment) continue;
    std::string_view line = src.substr(line_start); // keywords never span lines
    std::size_t at_i = i - line_start;
    switch (p[i]) {
    case 'g':
      if (at(line, at_i, "gluon", false)) return "gluon";
      break;
    case 'c':
    case 'C':
      cute = cute || at(line, at_i, "cutlass.cute", true) || at(line, at_i, "cute.jit", true) ||
             at(line, at_i, "cutedsl", true);
      cuda = cuda || at(line, at_i, "cpp_extension", false);
      break;
    case 'i':
    case 'I': cute = cute || at(line, at_i, "import cutlass", true); break;
    case 'l': cuda = cuda || at(line, at_i, "load_inline", false); break;
    case '_': cuda = cuda || at(line, at_i, "__global__", false); break;
    case 'h': cuda = cuda || at(line, at_i, "hipcc", false); break;
    case 't': triton = triton || at(line, at_i, "triton", false); break;
    default: break;
    }
  }
  if (cute) return "cutedsl";
  if (cuda) return "cuda";
  if (triton) return "triton";
  return "any";
}

} // namespace otm::trace
