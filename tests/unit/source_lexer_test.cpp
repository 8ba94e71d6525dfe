#include <catch2/catch.hpp>

#include "code/source_lexer.hpp"

using namespace otm;
using code::LineKind;

namespace {

std::vector<LineKind> kinds(std::string_view text, code::Language lang = code::Language::Python) {
  std::vector<LineKind> out;
  for (const auto &l : code::lex_source(text, lang)) out.push_back(l.kind);
  return out;
}

// The text of every span of `kind` in the source, joined with "|".
std::string spans_of(std::string_view text, code::SpanKind kind, code::Language lang = code::Language::Python) {
  std::string out;
  for (const auto &l : code::lex_source(text, lang))
    for (const auto &s : l.spans)
      if (s.kind == kind) out += (out.empty() ? "" : "|") + std::string(l.text.substr(s.begin, s.end - s.begin));
  return out;
}

} // namespace

TEST_CASE("lexer: Python comments, docstrings, strings and code per line", "[lexer]") {
  std::string src = "def f(x):\n"
                    "    \"\"\"Row softmax.\n"
                    "\n"
                    "    Tuned for v25.\"\"\"\n"
                    "    # a comment\n"
                    "    s = \"# not a comment\"  # but this is\n"
                    "    return x // 2\n"
                    "__version__ = \"1.4\"\n"
                    "KERNEL_VERSION = 25  # bumped\n"
                    "   \n";
  CHECK(kinds(src) == std::vector<LineKind>{LineKind::Code, LineKind::Comment, LineKind::Blank, LineKind::Comment,
                                            LineKind::Comment, LineKind::Code, LineKind::Code, LineKind::VersionStamp,
                                            LineKind::VersionStamp, LineKind::Blank});
  CHECK(spans_of(src, code::SpanKind::Comment) == "# a comment|# but this is|# bumped");
  CHECK(spans_of(src, code::SpanKind::String) == "\"# not a comment\"|\"1.4\"");
  // `//` is floor division in Python.
  CHECK(spans_of("y = a // b\n", code::SpanKind::Comment).empty());
  // A prefixed docstring is still a docstring; spans cover the whole line.
  auto lines = code::lex_source("    r'''Doc.'''", code::Language::Python);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].kind == LineKind::Comment);
  CHECK(lines[0].spans.front().begin == 0);
  CHECK(lines[0].spans.back().end == lines[0].text.size());
}

TEST_CASE("lexer: C/C++/CUDA and PTX files", "[lexer]") {
  std::string cu = "#include <cuda_fp16.h>\n"
                   "// v12: vectorised\n"
                   "__global__ void k(float4 *x) {  /* one\n"
                   "   block */ int n = 0;\n"
                   "  printf(\"a // b\\n\");\n"
                   "}\n"
                   "#define KERNEL_VERSION 12\n";
  auto lang = code::language_of_path("kernels/softmax.cu");
  CHECK(lang == code::Language::CFamily);
  CHECK(code::language_of_path("kernel.py") == code::Language::Python);
  CHECK(code::language_of_path("x.ptx") == code::Language::CFamily);
  CHECK(kinds(cu, lang) == std::vector<LineKind>{LineKind::Code, LineKind::Comment, LineKind::Code, LineKind::Code,
                                                 LineKind::Code, LineKind::Code, LineKind::VersionStamp});
  CHECK(spans_of(cu, code::SpanKind::Comment, lang) == "// v12: vectorised|/* one|   block */");
  std::string ptx = "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1]; // 128-bit load\n"
                    "// v3 tuned\n";
  CHECK(kinds(ptx, lang) == std::vector<LineKind>{LineKind::Code, LineKind::Comment});
}

TEST_CASE("lexer: C/C++ sources embedded in Python strings", "[lexer]") {
  std::string src = "cuda_src = r\"\"\"\n"
                    "// v25: double buffered\n"
                    "__global__ void k() { /* a\n"
                    "  b */ }\n"
                    "\"\"\"\n"
                    "cpp_src = \"torch::Tensor run(torch::Tensor x);  // v3 entry\"\n"
                    "mod = load_inline(name='m', cpp_sources=cpp_src, cuda_sources=[cuda_src])\n"
                    "cpp_hdr = (\n"
                    "    \"int g();  // v4 decl\\n\"\n"
                    ")\n"
                    "url = \"http://x\"\n";
  auto lines = code::lex_source(src, code::Language::Python);
  REQUIRE(lines.size() == 11);
  CHECK(lines[1].kind == LineKind::Comment);
  CHECK(lines[1].spans.at(0).embedded);
  CHECK(lines[2].kind == LineKind::Code);
  CHECK(spans_of(src, code::SpanKind::Comment) == "// v25: double buffered|/* a|  b */|// v3 entry|// v4 decl\\n");
  // A string that is not source: its "//" is data.
  CHECK(lines[10].spans.size() == 2);
  CHECK(lines[10].spans[1].kind == code::SpanKind::String);
  // A triple-quoted string inside brackets is an expression, not a docstring.
  auto bracketed = kinds("TEXT = (\n    \"\"\"\n    __global__ void k() {}\n    \"\"\"\n)\n");
  CHECK(bracketed[2] == LineKind::Code);
}

TEST_CASE("lexer: unified diffs, per side and per hunk", "[lexer]") {
  std::string diff = "diff --git a/kernel.py b/kernel.py\n"
                     "index 1234567..89abcde 100644\n"
                     "--- a/kernel.py\n"
                     "+++ b/kernel.py\n"
                     "@@ -1,4 +1,4 @@ def f():\n"
                     "     \"\"\"Doc\n"
                     "-    first v24 line\n"
                     "+    first v25 line\n"
                     "     \"\"\"\n"
                     "@@ -10,2 +10,2 @@\n"
                     "-    launch(num_warps=4)\n"
                     "+    launch(num_warps=8)\n"
                     "diff --git a/k.cu b/k.cu\n"
                     "--- a/k.cu\n"
                     "+++ b/k.cu\n"
                     "@@ -1 +1 @@\n"
                     "-int x = 1; // v1\n"
                     "+int x = 1; // v2\n"
                     "\\ No newline at end of file\n";
  auto lines = code::lex_diff(diff);
  REQUIRE(lines.size() == 19);
  CHECK(lines[4].role == code::DiffLine::Role::HunkHeader);
  CHECK(lines[6].role == code::DiffLine::Role::Removed);
  CHECK(lines[6].kind == LineKind::Comment); // inside the docstring
  CHECK(lines[7].kind == LineKind::Comment);
  CHECK(lines[10].kind == LineKind::Code);
  CHECK(lines[16].kind == LineKind::Code); // the .cu file is lexed as C: `int x = 1;` is code
  CHECK(lines[18].role == code::DiffLine::Role::Marker);
  auto all = code::count_changes(lines);
  CHECK(all.code == 4);
  CHECK(all.comment == 2);
  CHECK_FALSE(code::count_changes(lines, 0).changes_code());
  CHECK(code::count_changes(lines, 1).changes_code());
  // Spans are offsets into the whole diff line, after the marker.
  CHECK(lines[11].body == 1);
  CHECK(lines[11].spans.front().begin == 1);
}

TEST_CASE("lexer: a hunk that starts inside a docstring", "[lexer]") {
  // The closing quotes stand alone, as usual: the hunk's text decides.
  std::string diff = "@@ -3,4 +3,4 @@ def k(x):\n"
                     "-    Measured on the cold harness in v12.\n"
                     "+    Measured on the warm-L2 harness.\n"
                     "     \"\"\"\n"
                     "-    return x * 2\n"
                     "+    return x * 4\n";
  auto lines = code::lex_diff(diff);
  REQUIRE(lines.size() == 6);
  CHECK(lines[1].kind == LineKind::Comment);
  CHECK(lines[2].kind == LineKind::Comment);
  CHECK(lines[3].kind == LineKind::Comment);
  CHECK(lines[4].kind == LineKind::Code);
  CHECK(lines[5].kind == LineKind::Code);
  CHECK_FALSE(code::count_changes(lines, 0).comment == 0);
  // Prose before the quotes on the same line.
  std::string closing = "@@ -3,2 +3,2 @@\n"
                        "-    measured on the cold harness in v12.\"\"\"\n"
                        "+    measured on the warm-L2 harness.\"\"\"\n"
                        "     x = 1\n";
  auto c = code::lex_diff(closing);
  CHECK(c[1].kind == LineKind::Comment);
  CHECK(c[2].kind == LineKind::Comment);
  CHECK(c[3].kind == LineKind::Code);
  CHECK_FALSE(code::count_changes(c).changes_code());
  // A hunk that starts in code and opens a docstring stays code before it.
  std::string opening = "@@ -1,3 +1,3 @@\n"
                        "-def k(x):\n"
                        "+def k(y):\n"
                        "     \"\"\"Row softmax.\n"
                        "     Measured on the warm harness.\n";
  auto o = code::lex_diff(opening);
  CHECK(o[1].kind == LineKind::Code);
  CHECK(o[3].kind == LineKind::Comment);
  CHECK(o[4].kind == LineKind::Comment);
  // A module docstring at the top of the file, then imports that read like
  // words (`from triton.experimental import gluon`): still a docstring, then code.
  std::string top = "@@ -1,8 +1,8 @@\n"
                    " \"\"\"Row-wise layernorm over a [M, 2048] tensor (generated trace).\n"
                    " \n"
                    "-Tuning log: num_stages 4 -> 3, fewer tiles in flight\n"
                    "+Tuning log: num_stages 3 -> 2, fewer tiles in flight\n"
                    " \"\"\"\n"
                    "-# revision 104\n"
                    "+# revision 105\n"
                    " import torch\n"
                    " from triton.experimental import gluon\n"
                    " from triton.experimental.gluon import language as gl\n";
  auto t = code::lex_diff(top);
  CHECK(t[3].kind == LineKind::Comment);
  CHECK(t[4].kind == LineKind::Comment);
  CHECK(t[8].kind == LineKind::Code);
  CHECK(t[9].kind == LineKind::Code);
  CHECK_FALSE(code::count_changes(t).changes_code());
}

TEST_CASE("lexer: with the file after the change, a hunk starts as the file reads there", "[lexer]") {
  // Round 15: a hunk inside a module docstring, with prose that reads like
  // code (brackets, `@`, `^T`) before the lone closing quotes.
  const std::string after = "\"\"\"W4A16 GEMV.\n"
                            "\n"
                            "y[M, N] = x[M, K] @ dequant(W)[N, K]^T for decode (M <= 4).\n"
                            "\n"
                            "Grid: (cdiv(N, BLOCK_N), SPLIT_K, M).  Each program dequantises a tile\n"
                            "per K step (magic-number fp16 conversion) and reduces it.\n"
                            "\"\"\"\n"
                            "\n"
                            "import triton\n";
  const std::string diff = "--- a/kernel.py\n"
                           "+++ b/kernel.py\n"
                           "@@ -3,5 +3,5 @@\n"
                           " y[M, N] = x[M, K] @ dequant(W)[N, K]^T for decode (M <= 4).\n"
                           " \n"
                           " Grid: (cdiv(N, BLOCK_N), SPLIT_K, M).  Each program dequantises a tile\n"
                           "-per K step (shift/mask + int->fp16 conversion) and reduces it.\n"
                           "+per K step (magic-number fp16 conversion) and reduces it.\n"
                           " \"\"\"\n";
  auto known = code::lex_diff(diff, after);
  REQUIRE(known.size() == 9);
  CHECK(known[6].kind == LineKind::Comment); // the removed line, inside the docstring
  CHECK(known[7].kind == LineKind::Comment);
  CHECK_FALSE(code::count_changes(known).changes_code());
  // A hunk after the docstring starts in code.
  const std::string below = "--- a/kernel.py\n+++ b/kernel.py\n@@ -9,1 +9,1 @@\n-import torch\n+import triton\n";
  auto code_hunk = code::lex_diff(below, after);
  CHECK(code_hunk[3].kind == LineKind::Code);
  CHECK(code_hunk[4].kind == LineKind::Code);
}

TEST_CASE("lexer: a hunk wholly inside a load_inline source string", "[lexer]") {
  // No triple quote in the hunk: its #define lines are C, not Python comments.
  std::string diff = "@@ -15,7 +15,7 @@ cuda_src = r\"\"\"\n"
                     " #define THREADS 128\n"
                     " #define VEC 1\n"
                     "-#define MIN_BLOCKS 1\n"
                     "+#define MIN_BLOCKS 3\n"
                     " #define N_COLS 8192\n"
                     " \n"
                     " // block-wide reduction\n"
                     " __device__ float block_reduce(float v, float* partial, bool take_max) {\n";
  auto lines = code::lex_diff(diff);
  CHECK(lines[3].kind == LineKind::Code);
  CHECK(lines[4].kind == LineKind::Code);
  CHECK(lines[7].kind == LineKind::Comment);
  CHECK(code::count_changes(lines).code == 2);
  // A Python hunk of comments only stays comments.
  auto py = code::lex_diff("@@ -4,3 +4,3 @@\n-# include the bias here\n+# include the bias later\n x = 1\n");
  CHECK_FALSE(code::count_changes(py).changes_code());
}
