#include "trace/dsl.hpp"

#include "text/regex.hpp"

namespace otm::trace {
namespace {

// A line that is only a Python comment says nothing about the code (e.g.
// "# ported from the triton version"). C preprocessor lines inside embedded
// CUDA/HIP sources start with '#' too and are kept.
std::string without_comment_lines(std::string_view src) {
  static const text::Regex comment(
      "(?m)^[ \\t]*#(?!include|define|pragma|if|ifdef|ifndef|endif|else|elif|undef|error)[^\\n]*");
  return comment.replace(src, "");
}

} // namespace

std::string detect_dsl(std::string_view source) {
  if (source.empty()) return "any";
  static const text::Regex cute("(?i)cutlass\\.cute|import cutlass|cute\\.jit|cutedsl");
  static const text::Regex cuda("load_inline|__global__|cpp_extension|hipcc");
  std::string code = without_comment_lines(source);
  if (code.find("gluon") != std::string::npos) return "gluon";
  if (cute.contains(code)) return "cutedsl";
  if (cuda.contains(code)) return "cuda";
  if (code.find("triton") != std::string::npos) return "triton";
  return "any";
}

} // namespace otm::trace
