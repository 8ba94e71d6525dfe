// Words for generated records: prose, headings, identifiers and code made
// from otm's own small vocabulary (never text of a real store). The text
// avoids every leak shape the store gates look for (paths, addresses, page
// names, version ids, hashes, absolute latencies, record ids), so a
// generated store passes them.
#pragma once

#include <string>

#include "random.hpp"

namespace otm::bench {

// Sentences of plausible GPU-kernel prose, about `length` bytes (at least
// one sentence).
std::string prose(Random &rng, std::size_t length);
// A short phrase of `words` words, lower case, no final period.
std::string phrase(Random &rng, std::size_t words);
// A slug of `words` words joined by '-' ([a-z0-9-] only).
std::string slug(Random &rng, std::size_t words);
// Kernel code of about `length` bytes: Python-like or C++-like lines, with
// '#' or '//' comments; as a unified diff (hunks of '-', '+' and ' ' lines)
// when `diff`.
std::string code(Random &rng, std::size_t length, bool python, bool diff);

} // namespace otm::bench
