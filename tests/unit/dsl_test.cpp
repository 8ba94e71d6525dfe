#include <catch2/catch.hpp>

#include "trace/dsl.hpp"

using otm::trace::detect_dsl;

TEST_CASE("DSL detection order of trace-format.md §7", "[dsl]") {
  CHECK(detect_dsl("") == "any");
  CHECK(detect_dsl("import triton\nfrom triton.experimental import gluon\n") == "gluon");
  CHECK(detect_dsl("import cutlass.cute as cute\nimport triton\n") == "cutedsl");
  CHECK(detect_dsl("@cute.jit\ndef f(): pass") == "cutedsl");
  CHECK(detect_dsl("from torch.utils.cpp_extension import load_inline\nimport triton") == "cuda");
  CHECK(detect_dsl("src = '''\n#include <hip/hip_runtime.h>\n__global__ void k() {}\n'''") == "cuda");
  CHECK(detect_dsl("import triton\nimport triton.language as tl\n") == "triton");
  CHECK(detect_dsl("import torch\ndef f(x): return x * 2\n") == "any");
  CHECK(detect_dsl("Import Triton") == "any"); // case-sensitive keywords
}

TEST_CASE("whole-line comments do not decide the DSL", "[dsl]") {
  CHECK(detect_dsl("# a port of the triton kernel\nimport torch\n") == "any");
  CHECK(detect_dsl("    # gluon would be faster\nimport triton\n") == "triton");
  // A trailing comment is code-line text and still counts (kept conservative).
  CHECK(detect_dsl("x = 1  # triton\n") == "triton");
  // Preprocessor lines of embedded CUDA are not comments.
  CHECK(detect_dsl("#include <cuda_runtime.h>\n#define __global__ x\n") == "cuda");
}

TEST_CASE("CuTe keywords are case-insensitive, the others are not", "[dsl]") {
  CHECK(detect_dsl("IMPORT CUTLASS\n") == "cutedsl");
  CHECK(detect_dsl("x = CuteDSL\n__global__") == "cutedsl");
  CHECK(detect_dsl("Load_Inline HIPCC Gluon") == "any");
  CHECK(detect_dsl("nvcc or hipcc") == "cuda");
  CHECK(detect_dsl("import torch.utils.cpp_extension") == "cuda");
  CHECK(detect_dsl("no newline at the end: triton") == "triton");
  CHECK(detect_dsl("\n\n#\n") == "any");
}

TEST_CASE("comment-line handling at the edges of the text", "[dsl]") {
  CHECK(detect_dsl("# triton") == "any");
  CHECK(detect_dsl("#triton\n") == "any");
  CHECK(detect_dsl("x\n# gluon\ntriton") == "triton");
  CHECK(detect_dsl("\n   \t# __global__\n") == "any");
  CHECK(detect_dsl("#if triton\n") == "triton"); // a preprocessor line is code
  CHECK(detect_dsl("a\n\n__global__") == "cuda");
}
