// Operator naming (spec families.md): the operator slug that becomes
// retrieval.scope.operator_family, the workload family that becomes
// retrieval.generality.workload_family. A change here refiles records, so
// every rule is pinned by tests (tests/unit/families_test.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::trace {

// families.md §1: strips campaign counters, container path segments and
// non-word runs; keeps case.
std::string normalise(std::string_view name);

// families.md §2: merge rules (case-insensitive here), then up to five
// lower-cased, abbreviated words joined by "-"; "unknown" when empty.
std::string slugify(std::string_view op_name);

// families.md §3 with token-boundary matching (docs/differences.md): the
// first rule one of whose keys occurs as whole tokens; "misc" otherwise.
std::string family_of(std::string_view op_name);

// families.md §4.
std::string technique_tag(std::string_view text, std::size_t limit = 40);

// The mirrored schema vocabulary (retrieval.generality.workload_family).
const std::vector<std::string> &family_vocabulary();
// Every family family_of can return (the rule families plus "misc").
std::vector<std::string> emittable_families();

} // namespace otm::trace
