// The words of a generated trace: a seeded source of phrases in British,
// American or mixed spelling. Templates name their spelling-variant words
// in braces ("the scratch {serialises} the max"); fill() picks the variant.
// Everything is otm's own text, written for these tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "storegen/random.hpp"
#include "tracegen/trace_options.hpp"

namespace otm::tracegen {

class Prose {
public:
  Prose(Spelling spelling, bench::Random &rng) : spelling_(spelling), rng_(rng) {}
  // The template with every {word} replaced by its British or American
  // form (Mixed: chosen per word). Unknown {names} stay as written.
  std::string fill(std::string_view tmpl);
  // One of the templates, filled.
  std::string pick(const std::vector<std::string> &templates);
  bench::Random &rng() { return rng_; }

private:
  Spelling spelling_;
  bench::Random &rng_;
};

} // namespace otm::tracegen
