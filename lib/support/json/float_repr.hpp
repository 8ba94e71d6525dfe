#pragma once

#include <string>

namespace otm::json {

// Python's repr(float): the shortest digits that round-trip, positional for
// exponents in [-4, 16), scientific otherwise ("1e-05", "1e+16"), and an
// integral value keeps ".0". JSON has no NaN/Infinity; they are written as
// null by the writer, never through this function.
std::string python_float_repr(double value);

// The same text appended to `out` (the writer's path: no temporary string).
void append_python_float_repr(std::string &out, double value);

} // namespace otm::json
