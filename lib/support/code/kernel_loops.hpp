// Whether a kernel file's device code runs a loop: a `for` or `while` in a
// Triton or Gluon `@jit` function, or in a CUDA `__global__` / `__device__`
// function of the source a Python string holds (load_inline). Software
// pipelining (`num_stages`, double buffering) and unrolling act on a loop;
// on a kernel without one they change nothing (round 9: a `num_stages`
// cause on a loop-free kernel). Generous: any loop of any device function
// counts, a static_range one included, so it may call a loop-free kernel
// looping, never the reverse.
//
// Usage:
//   if (auto loops = code::device_code_loops(after_text); loops && !*loops) ...  // no loop to pipeline
#pragma once

#include <optional>
#include <string_view>

namespace otm::code {

// nullopt when the file holds no device function this reader knows (a
// plain CUDA file, a wrapper module): nothing is decided then.
std::optional<bool> device_code_loops(std::string_view python_source);

} // namespace otm::code
