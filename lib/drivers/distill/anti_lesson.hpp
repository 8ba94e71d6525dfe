// A failed lever's lesson: the transferable directive (do not expect it
// to pay, to build, to pass the check), the settings of the kernel a build
// failure was tried in and those its error names, and what of the lever the
// run kept; and the shape regime a build error names, for the fact's
// condition. The anti-strategy drafter (anti_drafter.cpp) writes both.
//
//   p.set("lesson", anti_lesson(c, fact));
//   if (auto r = shape_regime_the_error_names(fact, c.af); !r.empty()) cond.set("shape_regime", r);
#pragma once

#include <string>

#include "distill/anti_fact.hpp"
#include "distill/draft_context.hpp"
#include "json/value.hpp"

namespace otm::distill::drafting {

std::string anti_lesson(const Context &c, const AntiFact &fact);

// The setting a build error names that a shape axis sets (`E_PAD=256` pads
// the axis `E`), as "E_PAD=256"; empty when it names none.
std::string shape_regime_the_error_names(const AntiFact &fact, const json::Value &af);

} // namespace otm::distill::drafting
