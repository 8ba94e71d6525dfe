// The template parameters of a C++/CUDA file's function templates that the
// function never reads: `template <int BLOCK_N, int VEC, ...> __global__
// void k(...)` whose signature and body name no `VEC` (kit 51, X02 and X06:
// a kernel tagged "vectorized memory access" for a `VEC` it never reads,
// instantiated with `kVec = 1`). A lever named only there runs nothing.
// Class templates and declarations without a body are not read.
//
//   for (auto &u : code::unread_template_parameters(text)) u.line, u.name
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct UnreadTemplateParameter {
  std::size_t line = 0; // 0-based line of its declaration
  std::string name;
};
std::vector<UnreadTemplateParameter> unread_template_parameters(std::string_view c_source);

} // namespace otm::code
