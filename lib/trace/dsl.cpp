#include "trace/dsl.hpp"

#include <array>
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
  bool cute = false, cuda = false, triton = false;
  for (std::size_t start = 0; start < src.size();) {
    const void *nl = std::memchr(src.data() + start, '\n', src.size() - start);
    std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char *>(nl) - src.data()) : src.size();
    std::string_view line = src.substr(start, end - start);
    start = end + 1;
    if (is_comment_line(line)) continue;
    static const std::array<bool, 256> kFirst = [] {
      std::array<bool, 256> t{};
      for (unsigned char c : std::string_view("gcCiIl_ht")) t[c] = true;
      return t;
    }();
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (!kFirst[static_cast<unsigned char>(line[i])]) continue;
      switch (line[i]) {
      case 'g':
        if (at(line, i, "gluon", false)) return "gluon";
        break;
      case 'c':
      case 'C':
        cute =
            cute || at(line, i, "cutlass.cute", true) || at(line, i, "cute.jit", true) || at(line, i, "cutedsl", true);
        cuda = cuda || at(line, i, "cpp_extension", false);
        break;
      case 'i':
      case 'I': cute = cute || at(line, i, "import cutlass", true); break;
      case 'l': cuda = cuda || at(line, i, "load_inline", false); break;
      case '_': cuda = cuda || at(line, i, "__global__", false); break;
      case 'h': cuda = cuda || at(line, i, "hipcc", false); break;
      case 't': triton = triton || at(line, i, "triton", false); break;
      default: break;
      }
    }
  }
  if (cute) return "cutedsl";
  if (cuda) return "cuda";
  if (triton) return "triton";
  return "any";
}

} // namespace otm::trace
