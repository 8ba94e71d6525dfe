// The words a search uses to find a drafted record: technique tags and
// symptoms, recognised in the packet's own text by a vocabulary that is
// data (the `retrieval_terms` section of data/otm-config.json, overridable
// with --config / OTM_CONFIG):
//   "techniques": {"<tag>": ["<pattern>", ...], ...}   what a change does
//   "symptoms":   {"<tag>": ["<pattern>", ...], ...}   what a run saw before it
// Patterns are PCRE2, matched case-insensitively as whole tokens (no word
// character on either side), so `seriali[sz]\w*` takes both spellings and
// `\.cs` finds a cache modifier. Tags are emitted in vocabulary order.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class TermVocabulary {
public:
  TermVocabulary() = default;
  // From one object of the section; anything malformed (not an object of
  // non-empty lists of non-empty strings, a pattern PCRE2 refuses) throws
  // otm::Error (kind Usage) naming `where` and the tag.
  static TermVocabulary from_json(const json::Value &terms, std::string_view where);

  // The tags whose patterns occur in `text`, in vocabulary order; with
  // `accept`, only tags with a match (the matched text) it accepts.
  using Accept = std::function<bool(std::string_view)>;
  std::vector<std::string> tags_in(std::string_view text, const Accept &accept = {}) const;
  // The first match of tag `tag`'s patterns in `text`, if any.
  bool matches(const std::string &tag, std::string_view text) const;

private:
  struct Term {
    std::string tag;
    std::shared_ptr<const text::Regex> regex;
  };
  std::vector<Term> terms_;
};

struct RetrievalTerms {
  TermVocabulary techniques, symptoms;
  static RetrievalTerms from_json(const json::Value &section, std::string_view where);
};

// The retrieval terms of one record, gathered from its packet's texts:
//   RecordTerms t(rules.retrieval);
//   t.techniques_in(change);          // vocabulary techniques the text names
//   t.techniques_in(change, accept);  // ... where `accept` takes the matched text
//   t.tag(tag_of("launch_config"));   // a tag of its own
//   t.symptoms_in({rationale, ...});  // symptoms, each with its first sentence as a trigger
//   t.write_to(record["retrieval"]);  // technique_tags, triggers, signals.symptoms
// Duplicates are dropped; texts holding a leak shape (record/leak_shapes)
// are not searched for symptoms, so no trigger can carry one.
class RecordTerms {
public:
  explicit RecordTerms(const RetrievalTerms &vocabulary) : vocabulary_(vocabulary) {}
  void tag(const std::string &t);
  void trigger(const std::string &t);
  void techniques_in(std::string_view text, const TermVocabulary::Accept &accept = {});
  void symptoms_in(const std::vector<std::string> &texts);
  void write_to(json::Value &retrieval) const;
  static constexpr std::size_t kMaxTriggers = 4;

private:
  const RetrievalTerms &vocabulary_;
  std::vector<std::string> tags_, symptoms_, triggers_;
};

// A tag made from free text (a category hint, a parameter name): lower
// case, runs of other characters as "-", at most 48 characters; "" when
// nothing is left or the result holds a leak shape (a version id, a hash).
std::string tag_of(std::string_view text);

} // namespace otm::distill
