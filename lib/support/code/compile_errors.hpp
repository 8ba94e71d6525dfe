// Errors a compiler stops at in a kernel file, found without a compiler.
//
// CUDA/C++ source a Python kernel file embeds (load_inline's
// `cuda_sources`, `cpp_sources`). A trace may mark such a kernel PASS; a reader who copies it
// gets a build failure (round 12: three CUDA reference kernels, checked
// with nvcc). Only errors that need no type system beyond the source's own
// declarations:
//  - `%%` in C++ code (not a literal or comment) of a string Python never
//    %-formats: two modulo operators in a row;
//  - `name[i]` on a name the source declares only as an arithmetic scalar
//    (`size_t base = ...; x + base[c]`).
//
//   code::cuda_compile_errors(file)  // {"`n %% VEC` ...", ...}, empty when none is seen
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct CompileError {
  std::size_t line = 0; // 1-based line of the Python file
  std::string code;     // the offending text, as written
  std::string why;      // what the compiler says, in words
};

std::vector<CompileError> cuda_compile_errors(std::string_view python_source);

// Gluon: a store into a shared-memory buffer allocated with one 16-bit
// float type (`gl.float16`) in a kernel whose problem's data is the other
// (`problem_dtype` "bfloat16"), with no conversion to the buffer's type in
// the file: Gluon's shared store requires the value's dtype to be the
// buffer's (round 12: an fp16 row cache storing bf16 values, in three
// reference kernels marked PASS).
std::vector<CompileError> gluon_compile_errors(std::string_view python_source, std::string_view problem_dtype);

// Triton and Gluon: a loop-carried accumulator that starts as a 16-bit
// float (`acc = tl.zeros(..., dtype=tl.float16)`) and is accumulated in the
// loop with a `tl.dot` whose result is float32 (no `out_dtype`, no `.to`):
// the JIT refuses a loop-carried variable whose type changes (round 13:
// "fp16 accumulation fails accuracy", twice, for code that cannot build).
std::vector<CompileError> triton_compile_errors(std::string_view python_source);

} // namespace otm::code
