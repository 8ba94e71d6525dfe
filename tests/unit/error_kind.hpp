// Matches an otm::Error of one kind, the thing that decides a tool's exit
// code: CHECK_THROWS_MATCHES(expr, otm::Error, otm::test::of_kind(ErrorKind::Usage)).
#pragma once

#include <catch2/catch.hpp>

#include "error/error.hpp"

namespace otm::test {

inline Catch::Matchers::Generic::PredicateMatcher<Error> of_kind(ErrorKind kind) {
  return Catch::Predicate<Error>([kind](const Error &e) { return e.kind() == kind; },
                                 "is an otm::Error of kind " + std::to_string(static_cast<int>(kind)));
}

} // namespace otm::test
