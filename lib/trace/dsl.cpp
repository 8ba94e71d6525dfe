#include "trace/dsl.hpp"

#include <array>
#include <cstring>

#include "text/regex.hpp"

namespace otm::trace {
namespace {

// A line that is only a Python comment says nothing about the code (e.g.
// "# ported from the triton version"). C preprocessor lines inside embedded
// CUDA/HIP sources start with '#' too and are code.
bool in_comment_line(std::string_view src, std::size_t pos) {
  std::size_t nl = pos == 0 ? std::string_view::npos : src.rfind('\n', pos - 1);
  std::size_t i = nl == std::string_view::npos ? 0 : nl + 1;
  while (i < pos && (src[i] == ' ' || src[i] == '\t')) ++i;
  if (i >= pos || src[i] != '#') return false;
  static const std::array<std::string_view, 11> kDirectives = {
      "include", "define", "pragma", "ifdef", "ifndef", "endif", "else", "elif", "undef", "error", "if"};
  std::string_view rest = src.substr(i + 1);
  for (auto d : kDirectives)
    if (rest.starts_with(d)) return false;
  return true;
}

// Searching the source as is and skipping hits on comment lines keeps this
// a single pass over each kernel.py (ingest runs it once per blob).
// memmem: string_view::find scans by first character, and '_' or 'l' occur
// everywhere in kernel code.
bool has_word(std::string_view src, std::string_view needle) {
  for (std::size_t from = 0; from < src.size();) {
    const void *hit = memmem(src.data() + from, src.size() - from, needle.data(), needle.size());
    if (!hit) return false;
    std::size_t pos = static_cast<std::size_t>(static_cast<const char *>(hit) - src.data());
    if (!in_comment_line(src, pos)) return true;
    from = pos + 1;
  }
  return false;
}

bool has_match(std::string_view src, const text::Regex &re) {
  for (auto m = re.search(src); m; m = re.search(src, m->end > m->begin ? m->end : m->end + 1))
    if (!in_comment_line(src, m->begin)) return true;
  return false;
}

} // namespace

std::string detect_dsl(std::string_view source) {
  if (source.empty()) return "any";
  static const text::Regex cute("(?i)cutlass\\.cute|import cutlass|cute\\.jit|cutedsl");
  if (has_word(source, "gluon")) return "gluon";
  // Every CuTe alternative contains "cut" in some case; the case-insensitive
  // regex only runs when a candidate exists (it dominated ingest's profile).
  bool maybe_cute = false;
  for (std::string_view cut : {"cut", "Cut", "cUt", "cuT", "CUt", "CuT", "cUT", "CUT"})
    maybe_cute = maybe_cute || memmem(source.data(), source.size(), cut.data(), cut.size()) != nullptr;
  if (maybe_cute && has_match(source, cute)) return "cutedsl";
  for (std::string_view k : {"load_inline", "__global__", "cpp_extension", "hipcc"})
    if (has_word(source, k)) return "cuda";
  if (has_word(source, "triton")) return "triton";
  return "any";
}

} // namespace otm::trace
