// The causal-sentence rule: which sentences of a trace's own prose state why
// a change works or fails ("…, so launch and tail effects shrink", "…
// removes the partial last wave", "… because the tile no longer fits").
// One rule, used by the packet builder (what_the_run_said.causal_sentences)
// and by the drafter when it looks for a mechanism. What counts is data:
// the `causal_sentences` section of data/otm-config.json (overridable with
// --config / OTM_CONFIG):
//   "markers":   words or phrases, matched whole-word and case-insensitively;
//                a sentence containing one states a cause or an effect's reason
//   "min_chars": shorter sentences (in code points) are too thin to quote
//   "not_causal": phrases of the run's own bookkeeping ("reverted", "tried
//                earlier"); a sentence holding one is no cause (optional)
//   "comparisons": words that compare before and after ("from", "fewer",
//                "drop"); a profile's conclusion without one, naming no
//                lever of the change, states the kernel's state, not why
//                the change helped (optional)
// A marker is matched as a word of prose, never inside a name of code
// ("reduce" is not found in `tl.reduce`).
// Sentences are text::sentences() of the text, verbatim except that a run of
// whitespace (a commit body's hard line wrap) reads as one space.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::record {

class CausalRule {
public:
  // No markers: no sentence is causal.
  CausalRule() = default;
  // From the configuration section; a missing or malformed section (not an
  // object, markers not a list of non-empty strings, min_chars not a
  // non-negative integer) throws an UnreadableInput Error naming `where` and the key.
  static CausalRule from_json(const json::Value &section, std::string_view where);

  bool is_causal(std::string_view sentence) const;
  // Whether `text` holds a word of "comparisons" (false when none is set).
  bool compares(std::string_view text) const;
  // The first marker `text` holds, as written there ("" when none); no
  // length rule (the quality report asks it of a mechanism).
  std::string first_marker(std::string_view text) const;
  // The causal sentences of `text`, in order (whitespace runs as one space).
  std::vector<std::string> causal_sentences(std::string_view text) const;

  const std::vector<std::string> &markers() const { return markers_; }
  std::size_t min_chars() const { return min_chars_; }

private:
  std::vector<std::string> markers_;
  std::size_t min_chars_ = 0;
  std::shared_ptr<const text::Regex> regex_;
  std::shared_ptr<const text::Regex> bookkeeping_;
  std::shared_ptr<const text::Regex> comparison_;
};

} // namespace otm::record
