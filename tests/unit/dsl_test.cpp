#include <catch2/catch.hpp>

#include <cctype>
#include <random>
#include <string>
#include <vector>

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

namespace {
// The rule read literally, line by line: a whole-line comment ('#' after
// blanks, not a preprocessor directive) is skipped; gluon anywhere wins,
// then the cute keywords (any case), then the cuda ones, then triton.
std::string dsl_by_lines(std::string_view src) {
  if (src.empty()) return "any";
  auto has = [](std::string_view line, std::string_view kw, bool fold) {
    for (std::size_t i = 0; i + kw.size() <= line.size(); ++i) {
      std::size_t k = 0;
      while (k < kw.size() && (fold ? std::tolower(static_cast<unsigned char>(line[i + k])) : line[i + k]) == kw[k])
        ++k;
      if (k == kw.size()) return true;
    }
    return false;
  };
  bool cute = false, cuda = false, triton = false;
  std::size_t pos = 0;
  while (pos <= src.size()) {
    std::size_t nl = src.find('\n', pos);
    std::string_view line = src.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? src.size() + 1 : nl + 1;
    std::size_t b = line.find_first_not_of(" \t");
    if (b != std::string_view::npos && line[b] == '#') {
      bool directive = false;
      for (std::string_view d :
           {"include", "define", "pragma", "ifdef", "ifndef", "endif", "else", "elif", "undef", "error", "if"})
        directive = directive || line.substr(b + 1).starts_with(d);
      if (!directive) continue;
    }
    if (has(line, "gluon", false)) return "gluon";
    for (std::string_view k : {"cutlass.cute", "cute.jit", "cutedsl", "import cutlass"})
      cute = cute || has(line, k, true);
    for (std::string_view k : {"load_inline", "__global__", "cpp_extension", "hipcc"})
      cuda = cuda || has(line, k, false);
    triton = triton || has(line, "triton", false);
  }
  return cute ? "cutedsl" : cuda ? "cuda" : triton ? "triton" : "any";
}
} // namespace

TEST_CASE("DSL detection agrees with the rule read line by line, keywords at every offset", "[dsl]") {
  // Pieces that make keywords, near misses, comment and directive lines,
  // and plain code; long sources cross the 16-byte blocks the scan reads.
  const std::vector<std::string_view> pieces = {"gluon",
                                                "Gluon",
                                                "glu",
                                                "cutlass.cute",
                                                "CUTE.JIT",
                                                "CuteDsl",
                                                "cute",
                                                "import cutlass",
                                                "import  cutlass",
                                                "cpp_extension",
                                                "load_inline",
                                                "load_",
                                                "__global__",
                                                "__glob",
                                                "hipcc",
                                                "HIPCC",
                                                "triton",
                                                "Triton",
                                                "trito",
                                                "# ",
                                                "#include ",
                                                "#if ",
                                                "#iffy ",
                                                "\n",
                                                "\n",
                                                "\n",
                                                "    ",
                                                "\t",
                                                "_",
                                                "__",
                                                "\x7f\x7f",
                                                "x",
                                                "cu",
                                                "im",
                                                "gl",
                                                "tr",
                                                "lo",
                                                "hi",
                                                "cp",
                                                "\xc3\xa9",
                                                "acc_1 = tl.load(ptr + offs * 3, mask=m)  # stage 1\n",
                                                "    return x * 2\n",
                                                "'''\n#include <hip/hip_runtime.h>\n"};
  std::mt19937 rng(11);
  std::size_t differing_answers = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string src;
    const std::size_t parts = rng() % 40;
    for (std::size_t k = 0; k < parts; ++k) {
      // Keywords rarely, so every answer turns up.
      std::size_t i = rng() % pieces.size();
      if (i < 19 && rng() % 4 != 0) i = 40;
      src += pieces[i];
    }
    INFO(src);
    REQUIRE(detect_dsl(src) == dsl_by_lines(src));
    differing_answers += dsl_by_lines(src) != "any";
  }
  CHECK(differing_answers > 1000);
  // One keyword at each offset of a long line, and after a long comment.
  for (std::size_t off = 0; off < 40; ++off) {
    for (std::string_view kw : {"gluon", "cute.jit", "__global__", "triton", "hipcc"}) {
      std::string code = std::string(off, 'a') + std::string(kw) + std::string(50, 'b');
      CHECK(detect_dsl(code) == dsl_by_lines(code));
      std::string commented = "# " + std::string(off, ' ') + std::string(kw) + "\n" + code;
      CHECK(detect_dsl(commented) == dsl_by_lines(code));
      CHECK(detect_dsl("#" + std::string(off, 'c') + std::string(kw)) == "any");
    }
  }
}
