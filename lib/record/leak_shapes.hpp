// The leak shapes: the one definition of what may never reach an
// agent-facing layer or a served record. The scrubber replaces them, the
// packet pre-flight and the anonymization gate detect them, all from this
// table, so the three can never drift apart (spec scrubbing.md weakness
// "three pattern sets drift").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"

namespace otm::record {

struct LeakShape {
  std::string label;       // "absolute path", "email", "markdown page", ...
  std::string replacement; // what the scrubber writes instead
  const text::Regex *regex;
};

// Shapes every served record must be free of, in the order the scrubber
// applies them (a path can end in .md, an address can sit in a path).
const std::vector<LeakShape> &store_leak_shapes();

// Version ids (`v12`) outside the vector-width exception, and 8-hex workload
// hashes: never resolvable by a reader of a served record. The reference
// gates neither; otm's trace gates and the packet pre-flight do.
const text::Regex &version_id_regex();
const text::Regex &workload_hash_regex();
// scrubbing.md §2: `v4` next to vec/float/.f16/... is a vector width.
bool is_vector_width(std::string_view text, std::size_t match_begin, std::size_t match_end);

struct Leak {
  std::string label;
  std::string token;
};

// Every leak in `text`: the store shapes, plus version ids and hashes when
// `strict` (trace-derived layers), plus each denylist term (label
// "private denylist").
std::vector<Leak> find_leaks(std::string_view text, bool strict, const text::Regex *denylist = nullptr);

} // namespace otm::record
