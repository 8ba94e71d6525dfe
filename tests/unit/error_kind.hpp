// Matches an otm::Error of one kind, the thing that decides a tool's exit
// code: CHECK_THROWS_MATCHES(expr, otm::Error, otm::test::of_kind(ErrorKind::Usage)).
// And what its message names: CHECK(otm::test::mentions(e, "`n`")).
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "error/error.hpp"

namespace otm::test {

inline Catch::Matchers::Generic::PredicateMatcher<Error> of_kind(ErrorKind kind) {
  return Catch::Predicate<Error>([kind](const Error &e) { return e.kind() == kind; },
                                 "is an otm::Error of kind " + std::to_string(static_cast<int>(kind)));
}

// Whether an error's message names `what` (a field, a file and row).
inline bool mentions(const Error &e, const std::string &what) {
  return std::string(e.what()).find(what) != std::string::npos;
}

} // namespace otm::test
