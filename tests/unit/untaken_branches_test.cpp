#include <catch2/catch.hpp>

#include "code/inert_code.hpp"
#include "code/untaken_branches.hpp"
#include "text/lines.hpp"

using namespace otm;

namespace {

std::vector<std::string> lines_of(const std::string &source) {
  std::vector<std::string> out;
  for (auto l : text::split_lines(source)) out.emplace_back(l);
  return out;
}

// Round 12: an evict_last load under `if constexpr (V == 8)` in a kernel
// launched with VEC = 4 and with 1.
std::string kernel(const std::string &vec) {
  return "constexpr int VEC = " + vec +
         ";\n"                                                             // 0
         "__device__ uint4 ld_keep(const uint4* p);\n"                     // 1
         "template <int V>\n"                                              // 2
         "__device__ void load_vec(const float* p, float* out) {\n"        // 3
         "    if constexpr (V == 8) {\n"                                   // 4
         "        uint4 r = ld_keep(reinterpret_cast<const uint4*>(p));\n" // 5
         "        out[0] = r.x;\n"                                         // 6
         "    } else {\n"                                                  // 7
         "        out[0] = p[0];\n"                                        // 8
         "    }\n"                                                         // 9
         "}\n"                                                             // 10
         "template <int V>\n"                                              // 11
         "__global__ void k(const float* x, float* y) {\n"                 // 12
         "    float v[V];\n"                                               // 13
         "    load_vec<V>(x, v);\n"                                        // 14
         "    y[0] = v[0];\n"                                              // 15
         "}\n"                                                             // 16
         "void run(const float* x, float* y, int n) {\n"                   // 17
         "    if (n % VEC == 0) k<VEC><<<1, 32>>>(x, y);\n"                // 18
         "    else k<1><<<1, 32>>>(x, y);\n"                               // 19
         "}\n";                                                            // 20
}

} // namespace

TEST_CASE("untaken branches: a constexpr branch no instantiation takes", "[inert][untaken]") {
  auto dead = code::untaken_branches(lines_of(kernel("4")));
  REQUIRE(dead.size() == 1);
  CHECK(dead[0].begin == 4);
  CHECK(dead[0].end == 8); // through `} else {`, whose else body stays
  CHECK(dead[0].condition == "if constexpr (V == 8)");
  // Instantiated with 8 (through k<VEC>), both bodies may compile.
  CHECK(code::untaken_branches(lines_of(kernel("8"))).empty());
  // A parameter some call deduces, or passes as an expression, is not known.
  auto deduced = kernel("4");
  deduced.replace(deduced.find("k<1><<<"), 7, "k<n / 32><<<");
  CHECK(code::untaken_branches(lines_of(deduced)).empty());
  // A flag constant: the branch under `if (USE_VEC4)` never runs.
  auto flagged = code::untaken_branches({"constexpr bool USE_VEC4 = false;", "__global__ void k(float* y) {",
                                         "  if (USE_VEC4) y[0] = 1.f;", "  if (!USE_VEC4) y[0] = 2.f;", "}"});
  REQUIRE(flagged.size() == 1);
  CHECK(flagged[0].begin == 2);
  CHECK(flagged[0].end == 3);
  // The preprocessor's `#if` is not a statement.
  CHECK(code::untaken_branches({"#define V 4", "#if (V == 8)", "int a = 1;", "#endif"}).empty());
}

TEST_CASE("inert code: what only an untaken branch calls runs for nothing", "[inert][untaken]") {
  const std::string src =
      "cuda_src = r'''\n" + kernel("4") + "'''\nmod = load_inline(name='k', cuda_sources=[cuda_src])\n";
  auto inert = code::find_inert_code(src, code::Language::Python, {"ld_keep"});
  using Why = code::InertCode::Why;
  CHECK(inert.lines[6] == Why::UntakenBranch); // the evict_last load
  CHECK(inert.owner[6] == "if constexpr (V == 8)");
  INFO(inert.owner[9]);
  CHECK(inert.lines[9] == Why::Live); // the else body
  auto owners = code::inert_owners(inert, {5, 6, 7, 9}, [](std::size_t, Why) { return true; });
  CHECK(owners.untaken == std::vector<std::string>{"if constexpr (V == 8)"});
  CHECK(owners.untaken_lines == 3);
}
