// The ground truth of a kernel change: which names on kernel.py's code
// lines (not comments, not the docstring) differ between two kernel
// states, and which of them no executed line reads (a bench constant, the
// dead `_TUNE_ID`, a helper nothing calls). Read off the states, not off a
// diff, so that a miner's reading of the diff can be checked against it.
#pragma once

#include <string>
#include <vector>

#include "tracegen/kernel_source.hpp"

namespace otm::tracegen {

struct CodeChange {
  std::vector<std::string> names; // every changed name, in a fixed order
  std::vector<std::string> dead;  // the names among them that no executed line reads
  bool runs() const { return names.size() > dead.size(); }
};

// What rendering `after` instead of `before` changes in kernel.py's code.
CodeChange code_change(Dsl dsl, const OperatorSpec &op, const KernelState &before, const KernelState &after);

} // namespace otm::tracegen
