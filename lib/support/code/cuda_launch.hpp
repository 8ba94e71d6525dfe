// How many thread blocks the host code of a CUDA source held by a Python
// string (load_inline) launches for one benchmarked shape (issue 25, round
// 10: a split-K "to fill all SMs" credited on a CUDA GEMV whose one short
// shape gained nothing; the grid is `dim3 grid(...)` and `<<<grid, ...>>>`,
// which the Python launch reading does not see).
//
// Read: the source's file-scope integer constants (`constexpr int kSplitK =
// 4;`, `#define ROWS 4`), then the first function that launches a kernel,
// statement by statement up to its first `KERNEL<<<GRID, ...>>>`: integer
// declarations and assignments, `dim3 NAME(...)`, and the SM count
// (`cudaDevAttrMultiProcessorCount`, `.multiProcessorCount`) bound to
// `sm_count`. A name the shape has as an axis (`const int N =
// y.size(-1)`, an `int N` parameter) takes the shape's value. Expressions
// are C's integer arithmetic read by code::eval_python (`/` as `//`, which
// agree on the non-negative sizes a grid is made of). The first launch is
// the kernel's: an epilogue kernel launched after it (a split-K finalize)
// is not counted.
//
// Usage:
//   auto outline = code::outline_module(text);
//   if (code::launches_cuda_kernel(outline))
//     code::cuda_blocks_launched(outline, {{"N", 4096}, {"K", 4096}}, 148)  // 4096 (1024 x 4)
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "code/module_outline.hpp"

namespace otm::code {

// Whether the source's C functions launch a kernel with `<<<...>>>`.
bool launches_cuda_kernel(const ModuleOutline &outline);

// nullopt when the first launch's grid is not a known whole number of
// blocks for this shape (a grid read from a tensor, a launch in a block,
// a name a branch binds).
std::optional<double> cuda_blocks_launched(const ModuleOutline &outline,
                                           const std::vector<std::pair<std::string, double>> &axes,
                                           std::optional<long> sm_count);

} // namespace otm::code
