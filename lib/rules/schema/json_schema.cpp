#include "schema/json_schema.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <set>

// valijson compiles `pattern` with std::regex, whose std::function members
// GCC 12 reports as maybe-uninitialized under the sanitizers (a false
// positive inside libstdc++); silence it for this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// valijson's adapter must come before any RapidJSON header (it defines
// RAPIDJSON_ASSERT).
#include <valijson/adapters/rapidjson_adapter.hpp>

#include <rapidjson/document.h>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "json/parse.hpp"

namespace otm::schema {
namespace {

// Keywords whose value is a map of name → schema.
const std::set<std::string> kSchemaMaps = {"properties", "patternProperties", "$defs", "definitions"};
// Keywords whose value is one schema.
const std::set<std::string> kSchemaValued = {
    "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "items", "additionalItems"};
// Keywords whose value is a list of schemas.
const std::set<std::string> kSchemaLists = {"allOf", "anyOf", "oneOf"};
const std::set<std::string> kUnsupported = {
    "prefixItems", "unevaluatedProperties", "unevaluatedItems", "dependentRequired", "dependentSchemas",
    "$anchor",     "$dynamicRef",           "$dynamicAnchor",   "$recursiveRef",     "$recursiveAnchor",
    "minContains", "maxContains",           "$vocabulary"};

void collect_unsupported(const json::Value &node, std::set<std::string> &out) {
  const auto *obj = node.as_object();
  if (!obj) return;
  for (const auto &[key, value] : *obj) {
    if (kUnsupported.count(key)) out.insert(key);
    if (kSchemaMaps.count(key)) {
      if (const auto *m = value.as_object())
        for (const auto &member : *m) collect_unsupported(member.second, out);
    } else if (kSchemaValued.count(key)) {
      if (const auto *a = value.as_array())
        for (const auto &item : *a) collect_unsupported(item, out);
      else
        collect_unsupported(value, out);
    } else if (kSchemaLists.count(key)) {
      if (const auto *a = value.as_array())
        for (const auto &item : *a) collect_unsupported(item, out);
    }
  }
}

// Draft 7 ignores keywords next to $ref; 2020-12 applies them.
json::Value lower_ref_siblings(const json::Value &node) {
  if (const auto *a = node.as_array()) {
    json::Value out = json::Value::array();
    for (const auto &item : *a) out.push_back(lower_ref_siblings(item));
    return out;
  }
  const auto *obj = node.as_object();
  if (!obj) return node;
  json::Value out = json::Value::object();
  for (const auto &[key, value] : *obj) out.set(key, lower_ref_siblings(value));
  static const std::set<std::string> annotations = {"description", "title", "$comment", "default", "examples"};
  if (out.contains("$ref")) {
    json::Value rest = json::Value::object();
    for (const auto &[key, value] : *out.as_object())
      if (key != "$ref" && !annotations.count(key)) rest.set(key, value);
    if (rest.size() > 0) {
      json::Value ref = json::Value::object();
      ref.set("$ref", out.get("$ref"));
      json::Value all = json::Value::array();
      all.push_back(ref);
      all.push_back(rest);
      json::Value wrapped = json::Value::object();
      wrapped.set("allOf", all);
      return wrapped;
    }
  }
  return out;
}

void to_rapid(const json::Value &v, rapidjson::Value &out, rapidjson::Document::AllocatorType &alloc) {
  switch (v.kind()) {
  case json::Kind::Null: out.SetNull(); break;
  case json::Kind::Bool: out.SetBool(*v.as_bool()); break;
  case json::Kind::Int: out.SetInt64(*v.as_int()); break;
  case json::Kind::Double: {
    // 2020-12: a number with a zero fractional part is an integer.
    double d = *v.as_number();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15)
      out.SetInt64(static_cast<std::int64_t>(d));
    else
      out.SetDouble(d);
    break;
  }
  case json::Kind::String: out.SetString(v.as_string()->c_str(), v.as_string()->size(), alloc); break;
  case json::Kind::Array:
    out.SetArray();
    for (const auto &item : *v.as_array()) {
      rapidjson::Value child;
      to_rapid(item, child, alloc);
      out.PushBack(child, alloc);
    }
    break;
  case json::Kind::Object:
    out.SetObject();
    for (const auto &[key, value] : *v.as_object()) {
      rapidjson::Value k(key.c_str(), key.size(), alloc);
      rapidjson::Value child;
      to_rapid(value, child, alloc);
      out.AddMember(k, child, alloc);
    }
    break;
  }
}

std::string join_context(const std::vector<std::string> &context) {
  std::string path;
  for (const auto &c : context) {
    if (c == "<root>") continue;
    std::string part = c;
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') part = part.substr(1, part.size() - 2);
    if (part.size() >= 2 && part.front() == '"' && part.back() == '"') part = part.substr(1, part.size() - 2);
    if (!path.empty()) path += "/";
    path += part;
  }
  return path.empty() ? "<root>" : path;
}

bool is_aggregate(const std::string &message) {
  for (const char *prefix : {"Failed to validate against child schema", "Failed to validate against a conditional",
                             "Failed to validate against schema associated with property", "Failed to validate item #",
                             "Failed to validate against any child schemas"})
    if (message.rfind(prefix, 0) == 0) return true;
  return false;
}

} // namespace

std::vector<std::string> unsupported_keywords(const json::Value &doc) {
  std::set<std::string> found;
  collect_unsupported(doc, found);
  return {found.begin(), found.end()};
}

struct Schema::Impl {
  rapidjson::Document schema_doc;
  valijson::Schema compiled;
  std::unique_ptr<CompiledValidator> fast;
  std::string fast_refused;
  // valijson's schema, compiled once on first use: when the compiled
  // validator covers the schema, valijson only words the findings of an
  // invalid record, and a clean store never needs it (issue 11: 3 % of the
  // one pass, a sixth of a single gate's start-up).
  std::once_flag once;
  std::string failure; // why valijson refused the schema, when it did
  void compile_valijson(const json::Value &doc, const std::string &source) {
    to_rapid(lower_ref_siblings(doc), schema_doc, schema_doc.GetAllocator());
    try {
      valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
      valijson::adapters::RapidJsonAdapter adapter(schema_doc);
      parser.populateSchema(adapter, compiled);
    } catch (const std::exception &e) {
      failure = source + ": not a usable JSON Schema: " + e.what();
    }
  }
  const valijson::Schema &valijson_schema(const json::Value &doc, const std::string &source) {
    std::call_once(once, [&] { compile_valijson(doc, source); });
    if (!failure.empty()) throw SchemaError(failure);
    return compiled;
  }
};

Schema::Schema(const json::Value &doc, std::string source)
    : doc_(doc), source_(std::move(source)), impl_(std::make_unique<Impl>()) {
  if (!doc.is_object()) throw SchemaError(source_ + ": a JSON Schema must be an object");
  auto bad = unsupported_keywords(doc);
  if (!bad.empty()) {
    std::string names;
    for (const auto &b : bad) names += (names.empty() ? "" : ", ") + b;
    throw SchemaError(source_ + ": uses " + names +
                      ", which otm's validator (valijson, draft 7 engine) cannot evaluate; refusing to validate "
                      "with it rather than ignoring those keywords");
  }
  // From the 2020-12 document itself: it applies $ref siblings as the
  // lowering for valijson does.
  impl_->fast = CompiledValidator::compile(doc, &impl_->fast_refused);
  // Without the compiled validator valijson decides every record: compile
  // it now, so a schema it refuses fails at load as before.
  if (!impl_->fast) impl_->valijson_schema(doc_, source_);
}

const CompiledValidator *Schema::compiled() const { return impl_->fast.get(); }
const std::string &Schema::compiled_refusal() const { return impl_->fast_refused; }

std::vector<ValidationError> Schema::validate(const json::Value &record) const {
  // The common case, every record of a clean store valid, never builds the
  // RapidJSON copy nor runs valijson's visitor (issue 11: 56 % of the one
  // pass); an invalid record is worded by valijson, so findings are
  // valijson's text whichever path decided.
  if (impl_->fast && impl_->fast->valid(record)) return {};
  return validate_with_valijson(record);
}

Schema::~Schema() = default;
Schema::Schema(Schema &&) noexcept = default;
Schema &Schema::operator=(Schema &&) noexcept = default;

Schema Schema::from_file(const std::filesystem::path &path) {
  json::Value doc;
  try {
    doc = json::parse_file(path);
  } catch (const json::ParseError &e) {
    throw SchemaError(e.what());
  }
  return Schema(doc, path.string());
}

std::vector<ValidationError> Schema::validate_with_valijson(const json::Value &record) const {
  rapidjson::Document target;
  to_rapid(record, target, target.GetAllocator());
  // One validator per thread: it caches the std::regex of every `pattern`
  // it met (keyed by the pattern text, so any schema may share it); a fresh
  // one per record recompiled them all, an eighth of the schema gate's time.
  thread_local valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::RapidJsonAdapter adapter(target);
  std::vector<ValidationError> errors;
  if (validator.validate(impl_->valijson_schema(doc_, source_), adapter, &results)) return errors;
  for (const auto &e : results) errors.push_back({join_context(e.context), e.description});
  bool any_specific = std::any_of(errors.begin(), errors.end(), [](const auto &e) { return !is_aggregate(e.message); });
  if (any_specific)
    errors.erase(std::remove_if(errors.begin(), errors.end(), [](const auto &e) { return is_aggregate(e.message); }),
                 errors.end());
  std::stable_sort(errors.begin(), errors.end(), [](const auto &a, const auto &b) { return a.path < b.path; });
  errors.erase(std::unique(errors.begin(), errors.end(),
                           [](const auto &a, const auto &b) { return a.path == b.path && a.message == b.message; }),
               errors.end());
  return errors;
}

} // namespace otm::schema
