// Whether a record's mechanism says more than what was done: the quality
// report's "adds a cause" signal (issue 25). A simple textual test, so a
// reviewer can redo it by eye:
//   * the words of what was done are the claim part of the change text (a
//     strategy's `payload.change`) or of the attempt (an anti-strategy's
//     `payload.attempted`): the text before its cause or effect clause
//     (levers::claim_part: "so", "because", "to cut", a dash, ...);
//   * the mechanism's new words are its words of three or more characters
//     holding a letter, not common function words, that are not words of
//     what was done; words compare lower-cased, a plural "s" dropped, by
//     their first six characters ("vectorised" is "vectorized");
//   * the mechanism adds a cause when it has kMinNewWords new words or
//     more, or at least one new word and a causal connective (a marker of
//     the causal-sentence rule, data/otm-config.json `causal_sentences`).
// It judges no truth: a new word may be a wrong cause, and a restatement
// may be all a packet knew.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "record/causal_sentences.hpp"

namespace otm::report {

inline constexpr std::size_t kMinNewWords = 3;

struct AddedCause {
  bool adds = false;
  std::vector<std::string> new_words; // the mechanism's new words, as written, in order, each once
  std::string connective;             // the first causal marker the mechanism holds, or ""
};

AddedCause added_cause(std::string_view mechanism, std::string_view what_was_done, const record::CausalRule &causal);

} // namespace otm::report
