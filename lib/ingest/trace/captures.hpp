// Profiler captures (spec trace-format.md §4): one row per
// profiles/v<N>[_-variant]/ directory, and whether its profiled kernel is
// the kernel under optimisation.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "config/settings.hpp"
#include "json/value.hpp"

namespace otm::trace {

// RTM_NON_TARGET_KERNELS / --non-target-kernels (comma-separated, trimmed,
// empties dropped) when it yields any name, else the configuration's list.
std::vector<std::string> non_target_kernels(const config::Settings &settings, const config::Config &config);

// Whether a profiled kernel is one of `non_target`. A profiler names a
// C++ kernel with its return type, namespaces, template arguments and
// parameters (`void at::native::(anonymous namespace)::
// distribution_elementwise_grid_stride_kernel<float, 4, ...>(...)`); its
// qualified name is what is left (`at::native::distribution_elementwise_
// grid_stride_kernel`). An entry matches the raw name exactly, the
// qualified name, or its trailing components (`distribution_elementwise_
// grid_stride_kernel`, `native::fill`); an entry ending in `::` matches
// every kernel of that namespace (`at::native::`: PyTorch's own fills,
// reductions and RNG, never a trace's kernel under test).
bool is_non_target_kernel(std::string_view profiled, const std::vector<std::string> &non_target);

// Lines as Python's str.splitlines() counts them.
std::size_t count_lines(std::string_view text);

// The profiler a capture came from, lower-case ("ncu", "nsys", "nvprof",
// "rocprof", "omniperf", ...): the first tool named by a token of the
// directory name (`v5_ncu`, `v5-nsys`), else by the report's first line
// (`# ncu report for v5`, "Nsight Compute" = ncu, "Nsight Systems" = nsys);
// "" when neither names one. A profiler quote is attributed to this tool.
std::string capture_tool(std::string_view dir, std::string_view report);

class TraceFiles;
// profiles.jsonl rows in directory-name order, keys in §9.2 order, read
// under the trace reading policy (a capture directory that is a link out
// of the trace is a skip, not a row).
std::vector<json::Value> scan_captures(const TraceFiles &files, const std::vector<std::string> &non_target);

} // namespace otm::trace
