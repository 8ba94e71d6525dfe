// A Triton or Gluon dot on FP8 operands: `tl.dot(a, b)` where `a` and `b`
// are loaded as they are stored, in a file that takes FP8 tensors
// (`torch.float8_e4m3fn`, `tl.float8e4nv`, ...). Triton compiles that only
// for GPUs with FP8 matrix units (sm_89 and later, CDNA3); on an A100 it
// is a compile error (round 18: a block-scaled FP8 GEMM reference kernel
// offered for A100). An operand converted on its load line (`.to(...)`)
// or bound otherwise is not judged FP8.
//
//   if (auto dot = code::fp8_dot(file_text)) *dot   // "tl.dot(a, b)"
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

std::optional<std::string> fp8_dot(std::string_view python_source);

} // namespace otm::code
