#include <catch2/catch.hpp>

#include "code/template_parameters.hpp"

using namespace otm;

namespace {

std::vector<std::string> unread(const std::string &source) {
  std::vector<std::string> out;
  for (const auto &u : code::unread_template_parameters(source)) out.push_back(std::to_string(u.line) + ":" + u.name);
  return out;
}

} // namespace

TEST_CASE("a function template's parameter its function never reads", "[code][issue25]") {
  // Kit 51, X06: `VEC` declared, instantiated with kVec = 1, read nowhere.
  const std::string kernel = "constexpr int kVec = 1;\n"
                             "template <int BLOCK_N, int VEC, int ROWS, bool ONE_PASS = true>\n"
                             "__global__ void __launch_bounds__(256) k(const float* x, float* y, int n) {\n"
                             "  // VEC lanes per load\n"
                             "  for (int i = threadIdx.x; i < BLOCK_N && i < n; i += blockDim.x) y[i] = x[i] * ROWS;\n"
                             "  if (ONE_PASS) { y[0] = 0; }\n"
                             "}\n"
                             "void launch() { k<1024, kVec, 2><<<1, 256>>>(nullptr, nullptr, 0); }\n";
  // The comment's VEC is no read.
  CHECK(unread(kernel) == std::vector<std::string>{"1:VEC"});
  // A parameter read in the signature (an array bound, a type) is read.
  CHECK(unread("template <typename T, int N>\nvoid f(T (&a)[N]) { a[0] = 0; }\n").empty());
  // A declaration without a body and a class template are not read.
  CHECK(unread("template <int VEC> __global__ void k(float* x);\n").empty());
  CHECK(unread("template <int VEC> struct S { int x; };\n").empty());
  // Nested angle brackets in a default, and a second template.
  CHECK(unread("template <int A, typename P = std::pair<int, int>>\nint g() { return A; }\n"
               "template <int B>\nint h() { return 0; }\n") == std::vector<std::string>{"0:P", "2:B"});
}
