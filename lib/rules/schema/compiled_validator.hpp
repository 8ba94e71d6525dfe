// A validator for the subset of JSON Schema the store's schemas use,
// compiled once from the schema into a flat table of nodes, that answers
// one question: is this record valid? (issue 11: valijson's visitor cost
// more than the goal for all nine store gates.)
//
// It decides; it never words. Schema::validate asks it first and, when it
// says "invalid", asks valijson for the findings, so the findings text is
// valijson's whatever this validator does. The one direction that must be
// exact is "valid": it may only say so when valijson would
// (tests/unit/compiled_validator_test.cpp checks both directions on every
// real record, every injected defect and a mutation per keyword).
//
// Supported, with valijson's draft 7 semantics in its strict-types mode:
// type (names, or a list of names), enum and const (of strings, booleans
// and null), required, properties, additionalProperties (boolean or a
// schema), patternProperties, items (one schema), minLength / maxLength
// (valijson's code-point count), minItems / maxItems, minimum / maximum /
// exclusiveMinimum / exclusiveMaximum (numbers), allOf / anyOf / oneOf /
// not, if / then / else, $ref to a "#/..." pointer (siblings applied, as in
// 2020-12 and as Schema's lowering does), $defs / definitions, boolean
// schemas, and the annotations (title, description, $comment, $schema,
// root $id, default, examples, x-*). `pattern` is run with PCRE2
// (text::Regex) and accepted only in a conservative ASCII form on which
// PCRE2 and std::regex (valijson's engine) find the same matches. Anything
// else — format, uniqueItems, contains, a pattern outside that form, an
// enum of numbers, an unknown keyword — makes compile() refuse, and Schema
// then uses valijson alone.
#pragma once

#include <memory>
#include <string>

#include "json/value.hpp"

namespace otm::schema {

class CompiledValidator {
public:
  // nullptr when `doc` uses anything outside the subset; `why` (when
  // given) then names the first thing refused.
  static std::unique_ptr<CompiledValidator> compile(const json::Value &doc, std::string *why = nullptr);

  ~CompiledValidator();
  CompiledValidator(const CompiledValidator &) = delete;
  CompiledValidator &operator=(const CompiledValidator &) = delete;

  // Whether valijson would accept `record` against the schema. Thread-safe.
  bool valid(const json::Value &record) const;

  struct Impl;

private:
  explicit CompiledValidator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace otm::schema
