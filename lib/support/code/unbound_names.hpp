// The names a Python module reads that nothing binds: its own statements
// (imports, defs, classes, assignments), a function's parameters and
// locals (the module outline's reads are already free of those), and
// Python's builtins. A kernel file that reads one cannot run as it stands
// (issue 25: a reference kernel quoted as "a working implementation" whose
// body reads `in_ptr`, a name its signature never declares).
//
//   code::unbound_names("def f(x):\n    return x + y\n") == {"y"}
//   code::unbound_names("from m import *\nf(y)\n")       == {}   // a wildcard may bind anything
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

// Sorted; empty when the module has a wildcard import.
std::vector<std::string> unbound_names(std::string_view python_source);

} // namespace otm::code
