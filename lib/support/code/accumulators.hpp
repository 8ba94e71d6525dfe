// The running sums of a kernel and the precision each is kept in: the
// names a kernel adds into (`sq += x * x`, `s = s * alpha + tl.sum(e)`,
// `acc = __hadd(acc, v)`) and what their last plain assignment before that
// makes them (`sq = tl.zeros([BLOCK], dtype=tl.float32)`, `s = 0.0`,
// `float acc = 0.f`, `__nv_bfloat16 acc = 0`). A cause that says an
// attempt sums in bf16 is not what the code does when every running sum
// stays fp32 (kit 28, Q13; kit 29, R14 and R19: the squares or the loads
// were cast to bf16, the sums were not).
//
// Python: lines of `@jit` functions; a float literal, `float(...)` or an
// fp32 dtype is fp32 (Triton's scalars are fp32). CUDA C (a Python
// string's source): lines of `__global__`/`__device__` functions; `float`
// and `double` are fp32 (or wider), `__half`/`__nv_bfloat16` (and their
// pairs) low, integer types are no sum of values; `__hadd`/`__hfma` into
// a name make it low.
//
//   for (const auto &a : code::running_sums(text)) a.name, a.precision, a.line
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct RunningSum {
  enum class Precision { Fp32, Low, Unknown };
  std::string name;
  Precision precision = Precision::Unknown;
  std::size_t line = 0; // 0-based line of the first accumulation into it
};

// Each name a kernel's device code accumulates into, once, in file order;
// integer counters are left out.
std::vector<RunningSum> running_sums(std::string_view source);

} // namespace otm::code
