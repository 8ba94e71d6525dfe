// The integer compile-time constants of C/C++/CUDA source, with the values
// the compiler gives them: `constexpr int VEC = 4;`, `const int N = 2 * VEC;`,
// `#define WARPS (THREADS / 32)`, `constexpr bool USE_VEC4 = false;` (0),
// each evaluated over the constants before it with C's integer arithmetic
// (`32 / 64` is 0). A name defined twice with different
// values, or by an expression this reading cannot evaluate, has none.
//
//   auto values = code::c_integer_constants(c_code);   // {"VEC": 4, "N": 8, ...}
//   code::evaluate_c_integer("WARPS * 2", values)      // 8, or nullopt
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

using CConstants = std::map<std::string, long long, std::less<>>;

CConstants c_integer_constants(std::string_view c_code);

// `expression` over `constants`, read by code::eval_python through
// python_of_c: integers (u/l suffixes), true/false, names, the arithmetic,
// shift and comparison operators, min/max. nullopt for anything else, an
// unknown name, or a division by zero.
std::optional<long long> evaluate_c_integer(std::string_view expression, const CConstants &constants);

// C integer arithmetic as Python reads it: suffixes, integral casts and
// `std::` dropped, `/` as `//` (which agree on the non-negative sizes
// kernels compute), the logical operators spelled out. What is left
// unmodelled (a member call, `sizeof`, `?:`) does not parse, so the value
// stays unknown. The one translation: code::cuda_blocks_launched reads
// grids with it too.
std::string python_of_c(const std::string &c);

} // namespace otm::code
