// JSON Schema validation of records (valijson over RapidJSON).
//
// The store's contract is written in draft 2020-12; valijson 1.0 implements
// draft 7. For the keywords a record schema uses the two drafts agree except
// in two places, which Schema handles before compiling:
//  - `$ref` next to other keywords: 2020-12 applies both, draft 7 ignores the
//    siblings, so such a node is rewritten to allOf[{$ref}, {siblings}];
//  - `$defs`: resolved as a plain JSON pointer, which valijson does.
// Any 2020-12-only keyword (prefixItems, unevaluated*, dependent*, $anchor,
// $dynamicRef, ...) is refused when the schema is loaded, naming the
// keyword, rather than silently ignored (docs/differences.md).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "error/error.hpp"
#include "schema/compiled_validator.hpp"
#include "json/value.hpp"

namespace otm::schema {

// A schema document that cannot be compiled: malformed, or using a keyword
// otm refuses (UnreadableInput, the schema being an input).
class SchemaError : public Error {
public:
  explicit SchemaError(const std::string &message) : Error(ErrorKind::UnreadableInput, message) {}
};

struct ValidationError {
  std::string path;    // "payload/problem/statement", or "<root>"
  std::string message; // valijson's description
};

class Schema {
public:
  // Compiles `doc`; throws SchemaError (naming `source`) when it is not a
  // schema otm can evaluate faithfully. valijson's compilation waits for
  // the first record the compiled validator rejects when that validator
  // covers the schema (a refusal by valijson then surfaces there, as a
  // SchemaError); otherwise it happens here.
  Schema(const json::Value &doc, std::string source);
  ~Schema();
  Schema(Schema &&) noexcept;
  Schema &operator=(Schema &&) noexcept;

  static Schema from_file(const std::filesystem::path &path);

  // Every error, sorted by path (stable), duplicates removed; aggregate
  // "failed against a child schema" lines are dropped when a specific error
  // explains them. Empty when valid.
  // A record the compiled validator (compiled_validator.hpp) accepts is
  // valid without valijson; any other record is worded by valijson.
  std::vector<ValidationError> validate(const json::Value &record) const;
  // valijson alone (the agreement test compares the two).
  std::vector<ValidationError> validate_with_valijson(const json::Value &record) const;
  // The compiled validator, or nullptr when the schema uses something it
  // refuses (then every record goes to valijson); `compiled_refusal()` says
  // what.
  const CompiledValidator *compiled() const;
  const std::string &compiled_refusal() const;

  const json::Value &document() const { return doc_; }
  const std::string &source() const { return source_; }

private:
  json::Value doc_;
  std::string source_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Keywords the validator cannot evaluate, found anywhere in schema position.
std::vector<std::string> unsupported_keywords(const json::Value &doc);

} // namespace otm::schema
