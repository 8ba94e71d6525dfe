// Which file of a trace holds its kernel. The spec's trace keeps it in
// kernel.py (trace-format.md §1); a CUDA or HIP trace often keeps the
// device source in kernel.cu beside a kernel.py that only builds and loads
// it (torch.utils.cpp_extension.load). otm-ingest decides once per trace,
// from the configuration's `kernel_files` candidates at HEAD, and records
// it in meta.json (TraceMeta::kernel_file); every later stage reads the
// kernel, its diffs and its snapshots from that file.
//
//   auto file = workspace::kernel_file_of({"kernel.py", "kernel.cu"}, read_at_head);
//   workspace::snapshot_path("v12", "kernel.cu") == "versions/kernel_v12.cu"
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace otm::workspace {

inline constexpr char kDefaultKernelFile[] = "kernel.py";

// The first candidate whose text (as `read` gives it; nullopt: absent)
// holds a kernel entry point (a `@...jit` decorator or a `__global__`
// function); else the first candidate present; else kDefaultKernelFile.
std::string kernel_file_of(const std::vector<std::string> &candidates,
                           const std::function<std::optional<std::string>(const std::string &)> &read);

// The kernel file's extension, which tells its language to every reader of
// a copy (".cu" is C++, not Python): ".py" when it has none.
std::string kernel_extension(std::string_view kernel_file);

// A kept version's snapshot of the kernel file: versions/kernel_<version>
// with the kernel file's extension.
std::string snapshot_path(std::string_view version, std::string_view kernel_file);

} // namespace otm::workspace
