// DSL detection (spec trace-format.md §7): which kernel language a
// kernel.py is written in, by keyword, first hit wins.
#pragma once

#include <string>
#include <string_view>

namespace otm::trace {

// Classifies one kernel source: gluon, cutedsl, cuda, triton or any.
// Whole-line Python comments are ignored (docs/differences.md); HIP
// sources classify as cuda, since the schema has no HIP value.
std::string detect_dsl(std::string_view source);

} // namespace otm::trace
