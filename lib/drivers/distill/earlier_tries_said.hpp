// What a strategy says of its change's earlier reverted tries: how many
// there were, how they ended, and what the run kept since the last one,
// which the gain may depend on (kits 24, 35, 36, 39, 40), for the record's
// `change` text.
//
//   if (auto before = tried_before(c); !before.empty()) change += before;
#pragma once

#include <string>

#include "distill/draft_context.hpp"

namespace otm::distill::drafting {

// " The run had tried this change 2 times before and reverted it; what it
// kept since the last try, which the gain may depend on: ..."; empty when
// the packet counts no earlier try.
std::string tried_before(const Context &c);

// Whether a kept step's change text names a lever or a code name in its
// first sentence (not only the run's verdict).
bool names_a_change(const Context &c, const std::string &step);

} // namespace otm::distill::drafting
