// The device code of a kernel file, and whether it runs a loop: a `for` or
// `while` in a Triton or Gluon `@jit` function, or in a CUDA `__global__` /
// `__device__` function of the source a Python string holds (load_inline).
// Software pipelining (`num_stages`, double buffering) and unrolling act on
// a loop; on a kernel without one they change nothing (round 9: a
// `num_stages` cause on a loop-free kernel). Generous: any loop of any
// device function counts, a static_range one included, so it may call a
// loop-free kernel looping, never the reverse.
//
// Usage:
//   if (auto loops = code::device_code_loops(after_text); loops && !*loops) ...  // no loop to pipeline
//   if (auto device = code::device_code(after_text)) lever_vocabulary.option_unused(l, dsl, *device);
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

// The lines of the file's device functions without their comments, one per
// line; nullopt when the file holds no device function this reader knows
// (a plain CUDA file, a wrapper module): nothing is decided then.
std::optional<std::string> device_code(std::string_view python_source);

// Whether device_code runs a loop; nullopt as device_code.
std::optional<bool> device_code_loops(std::string_view python_source);

} // namespace otm::code
