// The words a search uses to find a drafted record: technique tags (the
// levers a change pulls, data in the `levers` section of
// data/otm-config.json) and symptoms (what a run saw before it, the
// `retrieval_terms.symptoms` section: {"<tag>": ["<pattern>", ...]}), both
// overridable with --config / OTM_CONFIG and matched as levers/
// term_vocabulary.hpp says. Tags are emitted in vocabulary order.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "levers/lever_vocabulary.hpp"
#include "levers/term_vocabulary.hpp"
#include "json/value.hpp"

namespace otm::distill {

using levers::TermVocabulary;

// The technique tags are the levers' ids, named by their prose forms
// (levers/lever_vocabulary.hpp); the symptoms are the `symptoms` object of
// the `retrieval_terms` section.
struct RetrievalTerms {
  levers::LeverVocabulary levers;
  TermVocabulary symptoms;
  static RetrievalTerms from_config(const config::Config &config);
};

// The retrieval terms of one record, gathered from its packet's texts:
//   RecordTerms t(rules.retrieval);
//   t.techniques_in(change);          // vocabulary techniques the text names
//   t.techniques_in(change, accept);  // ... where `accept` takes the matched text
//   t.tag(tag_of("launch_config"));   // a tag of its own
//   t.symptoms_in({rationale, ...}, Symptoms::Observed);  // symptoms, each with its first sentence as a trigger
//   t.symptoms_in({rationale, ...}, Symptoms::Stated);    // only the triggers: no capture saw them
//   t.write_to(record["retrieval"]);  // technique_tags, triggers, signals.symptoms
// Duplicates are dropped; texts holding a leak shape (record/leak_shapes)
// are not searched for symptoms, so no trigger can carry one.
// Whether a symptom the run's words name was seen by a capture of the
// kernel under test (then it is a signal of the record) or only stated
// (then its sentence still says when to retrieve the record).
enum class Symptoms { Observed, Stated };

class RecordTerms {
public:
  explicit RecordTerms(const RetrievalTerms &vocabulary) : vocabulary_(vocabulary) {}
  void tag(const std::string &t);
  void trigger(const std::string &t);
  void techniques_in(std::string_view text, const TermVocabulary::Accept &accept = {});
  void symptoms_in(const std::vector<std::string> &texts, Symptoms as);
  void write_to(json::Value &retrieval) const;
  bool has_triggers() const { return !triggers_.empty(); }
  static constexpr std::size_t kMaxTriggers = 4;

private:
  const RetrievalTerms &vocabulary_;
  std::vector<std::string> tags_, symptoms_, triggers_;
  std::vector<std::string> named_; // every symptom named, observed or stated
};

// A tag made from free text (a category hint, a parameter name): lower
// case, runs of other characters as "-", at most 48 characters; "" when
// nothing is left or the result holds a leak shape (a version id, a hash).
std::string tag_of(std::string_view text);

} // namespace otm::distill
