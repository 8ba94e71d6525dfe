// A vocabulary of tags, each with the patterns that name it in text:
//   {"<tag>": ["<pattern>", ...], ...}
// Patterns are PCRE2, matched case-insensitively as whole tokens (no word
// character on either side, no "-free" or "-less" after), so `seriali[sz]\w*` takes both spellings and
// `\.cs` finds a cache modifier. Tags are reported in vocabulary order.
// The retrieval symptoms and the levers' prose forms are such vocabularies.
#pragma once

#include <optional>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::levers {

class TermVocabulary {
public:
  TermVocabulary() = default;
  // From an object of tag -> non-empty list of non-empty patterns; anything
  // else (or a pattern PCRE2 refuses) throws otm::Error (kind Usage) naming
  // `where` (the file and the section) and the tag.
  static TermVocabulary from_json(const json::Value &terms, std::string_view where);
  // One tag at a time (the levers section builds its prose forms this way).
  void add(const std::string &tag, const json::Value &patterns, std::string_view where);

  // The tags whose patterns occur in `text`, in vocabulary order; with
  // `accept`, only tags with a match (the matched text) it accepts.
  using Accept = std::function<bool(std::string_view)>;
  std::vector<std::string> tags_in(std::string_view text, const Accept &accept = {}) const;
  // Every match of every tag in `text`: the tag and the match's byte range.
  struct Hit {
    std::string tag;
    std::size_t begin = 0, end = 0;
  };
  std::vector<Hit> hits_in(std::string_view text) const;
  // Whether tag `tag`'s patterns occur in `text`.
  bool matches(const std::string &tag, std::string_view text) const;
  bool empty() const { return terms_.empty(); }

private:
  struct Term {
    std::string tag;
    std::shared_ptr<const text::Regex> regex;
  };
  std::vector<Term> terms_;
};

// One regex, the alternation of `patterns` (a non-empty list of non-empty
// strings) as a whole token; `caseless` adds (?i). In prose, a token
// followed by "-free" or "-less" ("rsqrt-free") names its absence and does
// not match. Throws otm::Error (Usage) naming `where` when the list or a
// pattern is malformed.
enum class TokenIn { Code, Prose };
std::shared_ptr<const text::Regex> whole_token_regex(const json::Value &patterns, bool caseless,
                                                     const std::string &where, TokenIn in = TokenIn::Code);
// The same list as one regex matched anywhere (a PTX qualifier follows
// another: `ld.global.nc.L1::no_allocate`), or as the whole text (a file
// name's suffix).
enum class PatternsMatch { Anywhere, WholeText };
std::shared_ptr<const text::Regex> patterns_regex(const json::Value &patterns, bool caseless, const std::string &where,
                                                  PatternsMatch match);
// A cause rule's configuration section (`dram_claims`, `tile_claims`,
// ...): nullopt when it is absent (the rule is off); else the name its
// errors go by ("otm-config.json: tile_claims"). Throws otm::Error (Usage)
// when it is there but no object.
std::optional<std::string> rule_section(const json::Value &section, std::string_view where, std::string_view name);
// The same for the list under `key` of a configuration section, named
// `where`.`key` in errors; nullptr when the section has no such key (the
// rule it feeds is then off).
std::shared_ptr<const text::Regex> whole_token_regex_at(const json::Value &section, const char *key, bool caseless,
                                                        const std::string &where);

} // namespace otm::levers
