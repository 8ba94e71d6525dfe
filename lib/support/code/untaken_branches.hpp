// Branches of C++/CUDA source no compilation takes: the body of an
// `if constexpr` (or a plain `if`) whose condition is false for every value
// its names can have, where those names are compile-time constants
// (`constexpr int VEC = 4;`, `#define VEC 4`) or the integer parameter of a
// function template whose every instantiation the source spells
// (`load_vec<VEC>(...)`, `kernel<1><<<...>>>`, or `f<V>` inside another such
// template). Round 12: an evict_last cache-policy load under
// `if constexpr (V == 8)` in a kernel instantiated only with 4 and 1,
// credited with a 10.7 % gain.
//
// Conservative: a name whose values are not all known (a call that deduces
// the parameter, an argument that is an expression), a condition that is
// not `NAME op LITERAL`, `LITERAL op NAME`, `NAME`, or `!NAME`, leaves the
// branch taken.
//
//   code::untaken_branches(c_lines)   // 0-based line ranges [begin, end) of the dead bodies
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace otm::code {

struct UntakenBranch {
  std::size_t begin = 0, end = 0; // lines [begin, end) of the body (the `if` line itself when the body starts there)
  std::string condition;          // as written: "if constexpr (V == 8)"
};

// `c_lines`: per line of the file, its C/C++ code (comments and literals
// removed), "" for a line that holds none (Python code of a kernel file).
std::vector<UntakenBranch> untaken_branches(const std::vector<std::string> &c_lines);

} // namespace otm::code
