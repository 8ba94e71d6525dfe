// What a diff's running code adds and drops, named by the lever
// vocabulary's code forms: `__shfl_xor_sync` in, `__syncthreads` out. Said
// beside a mechanism that only labels the step ("Cheaper reduction.",
// "Cheaper transcendental/dequant path.": kits 51-53, X07, Y04, the run's
// template for the step's category), so a reader sees in the code what the
// label stands for. A form on both sides (a setting changed, `num_warps`)
// is neither; a plain lower-case word (`other`, `key`) or a constant's
// name (`THREADS`) names no construct.
//
//   auto said = constructs_changed(diff, vocabulary, dsl);   // "" when none
//   // " In the code, the change adds `tl.exp2` and drops `tl.exp`."
#pragma once

#include <string>
#include <string_view>

#include "diff/diff_reading.hpp"
#include "levers/lever_vocabulary.hpp"

namespace otm::distill {

std::string constructs_changed(const diff::DiffReading &diff, const levers::LeverVocabulary &vocabulary,
                               std::string_view dsl);

} // namespace otm::distill
