// Injection tests: proof that each of the seventeen gates fires on the error
// it exists for. For each gate, a copy of a real staged record (and of its
// packet, or of the live id set, where the error lives there) is mutated
// once and only that gate is run on it. The gate must pass on the unmutated
// copy and fail on the mutated one; a crash is not "fired", and a case that
// cannot be set up is reported as such and counts as not proven.
#pragma once

#include <string>
#include <vector>

#include "gates/context.hpp"

namespace otm::gates {

enum class InjectionStatus { Fired, NotFired, Crashed, BaselineFails, NoSuitableRecord };

struct InjectionCase {
  std::string name; // "profile/generic-level"
  std::string gate;
  InjectionStatus status = InjectionStatus::NotFired;
  std::string record; // file of the record used
  std::string detail; // first finding, or why the case did not prove anything
};

std::vector<InjectionCase> run_injection_tests(const Context &ctx);
bool all_fired(const std::vector<InjectionCase> &cases);
std::string format_injection(const std::vector<InjectionCase> &cases, const std::string &store);

} // namespace otm::gates
