#include "code/vendor_code.hpp"

#include "text/regex.hpp"

namespace otm::code {

std::optional<std::string> ptx_inline_assembly(std::string_view source) {
  if (source.find("asm") == std::string_view::npos) return std::nullopt;
  // An asm statement (C/CUDA) or Triton's inline_asm_elementwise, then its
  // first string: a PTX opcode with its dotted qualifiers.
  static const text::Regex ptx(
      R"((?:\basm\s*(?:volatile\s*|__volatile__\s*)?\(|\binline_asm_elementwise\s*\(\s*(?:asm\s*=\s*)?)\s*[rRfbu]*["']\s*)"
      R"(((?:ld|st|mov|cvt|mma|wgmma|cp|shfl|red|atom|bar|prmt|lop3|ex2|rcp|rsqrt|fma|tanh|mbarrier|)"
      R"(elect|setmaxnreg|tcgen05|ldmatrix|stmatrix)(?:\.[A-Za-z0-9_:]+)+))");
  auto m = ptx.search(source);
  if (!m) return std::nullopt;
  return std::string((*m)[1]);
}

} // namespace otm::code
