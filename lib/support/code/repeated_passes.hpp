// Where a kernel reads one pointer it holds in two loops, neither inside
// the other: a two-pass kernel (`for (...) m = fmaxf(m, x[v]);` then
// `for (...) s += __expf(x[v] - m);`, or two `for off in range(0, N,
// BLOCK)` loops each calling `tl.load(x_ptr + ...)`). Each pass reads the
// data again, so a cause saying it is "touched once" or read in "a single
// pass" is not what the code does (kit 38, Q08: a cache hint credited to
// logits "touched once" beside a `// second pass` loop re-reading them).
//
// Python: a read is a `load(` call of a `@jit` function whose first argument
// starts with the pointer's name; CUDA C (a Python string's source): the
// pointer, a parameter or local of a `__global__` or
// `__device__` function declared with `*`, indexed or offset (`x[`, `x +`)
// and not assigned to. Loops are `for` and `while` loops.
//
//   if (auto r = code::pointer_read_in_two_passes(text)) r->name, r->first_line, r->second_line
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

struct RepeatedPass {
  std::string name;            // the pointer both loops read
  std::size_t first_line = 0;  // 0-based line of the read in the first loop
  std::size_t second_line = 0; // and in the second
};

// The first pointer of a device function read in two sibling loops;
// nullopt when there is none (or no device function this reader knows).
std::optional<RepeatedPass> pointer_read_in_two_passes(std::string_view source);

} // namespace otm::code
