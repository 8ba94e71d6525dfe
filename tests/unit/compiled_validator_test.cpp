// The compiled validator (schema/compiled_validator.hpp) agrees with
// valijson: on every real record, on every injected defect the gate tests
// use, on mutations of real records at every node, and on small schemas
// exercising each keyword it supports. And it refuses what it does not
// support, so Schema falls back to valijson instead of accepting silently.
#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <functional>
#include <set>
#include <variant>

#include "schema/builtin_schemas.hpp"
#include "schema/compiled_validator.hpp"
#include "schema/json_schema.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

const schema::Schema &builtin() {
  static const schema::Schema s(json::parse(schema::builtin_store_schema_text()), "builtin");
  return s;
}

// valid() == (valijson reports nothing); `what` names the case on failure.
void agree(const schema::Schema &s, const json::Value &v, const std::string &what) {
  REQUIRE(s.compiled() != nullptr);
  bool fast = s.compiled()->valid(v);
  bool slow = s.validate_with_valijson(v).empty();
  if (fast != slow) {
    INFO(what << ": compiled says " << (fast ? "valid" : "invalid") << ", valijson " << (slow ? "valid" : "invalid")
              << "\n"
              << json::to_line(v).substr(0, 400));
    CHECK(fast == slow);
  }
}

json::Value &member(json::Value &v, const char *key) {
  if (!v.get(key).is_object()) v.set(key, json::Value::object());
  return *v.find(key);
}

// The injected defects of store_gates_test.cpp and gates/injection.cpp.
const std::vector<std::pair<std::string, std::function<void(json::Value &)>>> &defects() {
  static const std::vector<std::pair<std::string, std::function<void(json::Value &)>>> d = {
      {"unknown top-level key", [](json::Value &r) { r.set("x_injected", true); }},
      {"short id", [](json::Value &r) { r.set("id", "injected.id"); }},
      {"home path", [](json::Value &r) { member(r, "payload").set("goal", "notes in /home/injected/x"); }},
      {"served raw",
       [](json::Value &r) {
         json::Value raw = json::Value::object();
         raw.set("source_repo", "injected");
         member(member(r, "evidence"), "summary").set("raw", raw);
       }},
      {"dangling link",
       [](json::Value &r) {
         member(member(r, "retrieval"), "links")
             .set("see_also", json::Value::strings({"injected.no.such.record.x-s99"}));
       }},
      {"stale score",
       [](json::Value &r) {
         auto &rank = member(member(r, "worth"), "rank");
         rank.set("score", rank.get("score").as_number().value_or(0.0) > 0.5 ? 0.1 : 0.9);
       }},
      {"blank goal", [](json::Value &r) { member(r, "payload").set("goal", "   "); }},
      {"record id in prose",
       [](json::Value &r) { member(r, "payload").set("goal", "as in nvidia.any.cuda.gemm.injected-s01"); }},
      {"inconclusive verdict",
       [](json::Value &r) {
         r.set("type", "anti-strategy");
         member(r, "payload").set("verdict", "unknown");
       }},
      {"generic level", [](json::Value &r) { r.set("level", "generic"); }},
      {"scope mismatch",
       [](json::Value &r) {
         auto &scope = member(member(r, "retrieval"), "scope");
         scope.set("dsl", scope.string_or("dsl") == "cuda" ? "triton" : "cuda");
       }},
      {"paraphrased snippet",
       [](json::Value &r) {
         member(member(r, "payload"), "implementation").set("snippet", "+    totally_invented_symbol = 1");
       }},
      {"invented number", [](json::Value &r) { member(member(r, "worth"), "gain").set("pct", 87.6543); }},
      {"unknown commit", [](json::Value &r) { member(member(r, "evidence"), "raw").set("git_commit", "0"); }},
      {"unbacked ncu claim",
       [](json::Value &r) {
         auto &ev = member(r, "evidence");
         member(member(ev, "summary"), "bottleneck_evidence").set("basis", "profiler");
         member(member(ev, "raw"), "evidence_extra").set("ncu_dirs", json::Value::strings({"injected-capture"}));
       }},
      {"comment-only snippet",
       [](json::Value &r) {
         r.set("type", "strategy");
         member(member(r, "payload"), "implementation").set("snippet", " x = 1\n+# measured");
       }},
  };
  return d;
}

// Replacements tried at a node: each breaks some keyword somewhere (type,
// enum, const, minLength, pattern, minimum/maximum, integer-ness, required
// through the object/array swaps).
std::vector<json::Value> replacements() {
  return {json::Value(),          json::Value(""),      json::Value("zzz-not-an-enum"),
          json::Value(-1),        json::Value(1.5),     json::Value(2.0),
          json::Value(true),      json::Value::array(), json::Value::object(),
          json::Value("Bad ID!"), json::Value(1e300),   json::Value(100)};
}

// Every node of `v` (pre-order), as a list of steps (member name or index).
using Path = std::vector<std::variant<std::string, std::size_t>>;
void paths(const json::Value &v, Path &at, std::vector<Path> &out) {
  out.push_back(at);
  if (const auto *o = v.as_object()) {
    for (const auto &[k, child] : *o) {
      at.emplace_back(k);
      paths(child, at, out);
      at.pop_back();
    }
  } else if (const auto *a = v.as_array()) {
    for (std::size_t i = 0; i < a->size(); ++i) {
      at.emplace_back(i);
      paths((*a)[i], at, out);
      at.pop_back();
    }
  }
}

template <typename V> V *walk(V &v, const Path &p, std::size_t n) {
  V *at = &v;
  for (std::size_t i = 0; i < n && at; ++i) {
    if (const auto *k = std::get_if<std::string>(&p[i]))
      at = at->find(*k);
    else
      at = at->as_array() ? &(*at->as_array())[std::get<std::size_t>(p[i])] : nullptr;
  }
  return at;
}

} // namespace

TEST_CASE("the compiled validator accepts the store schemas and refuses the rest", "[schema][compiled]") {
  CHECK(builtin().compiled() != nullptr);
  INFO(builtin().compiled_refusal());
  std::string why;
  for (const char *doc : {
           R"({"type": "string", "format": "date-time"})",
           R"({"type": "array", "uniqueItems": true})",
           R"({"contains": {"type": "string"}})",
           R"({"pattern": "^a.b$"})",
           R"({"pattern": "^\\d+$"})",
           R"({"pattern": "^[^a]$"})",
           R"({"pattern": "a*+"})",
           R"({"enum": [1, 2]})",
           R"({"items": [{"type": "string"}]})",
           R"({"$ref": "other.json#/x"})",
           R"({"propertyNames": {"minLength": 1}})",
           R"({"minProperties": 1})",
           R"({"multipleOf": 2})",
           R"({"dependencies": {"a": ["b"]}})",
           R"({"properties": {"a": {"$id": "x"}}})",
           R"({"x": {"$ref": "#/nowhere"}, "$ref": "#/nowhere"})",
       }) {
    INFO(doc);
    CHECK(schema::CompiledValidator::compile(json::parse(doc), &why) == nullptr);
    CHECK(!why.empty());
    why.clear();
  }
  // Refused means valijson alone decides, not "valid".
  schema::Schema fmt(json::parse(R"({"type": "array", "uniqueItems": true})"), "t");
  CHECK(fmt.compiled() == nullptr);
  CHECK(!fmt.validate(json::parse("[1, 1]")).empty());
}

TEST_CASE("the compiled validator agrees with valijson per keyword", "[schema][compiled]") {
  struct Case {
    const char *schema;
    std::vector<const char *> values;
  };
  const std::vector<Case> cases = {
      {R"({"type": "integer"})", {"1", "1.0", "1.5", "\"1\"", "null", "9007199254740993", "1e16", "-0.0"}},
      {R"({"type": ["string", "null"]})", {"\"a\"", "null", "0", "[]", "{}", "false"}},
      {R"({"type": "number", "minimum": 0, "maximum": 1})", {"0", "1", "0.5", "-0.001", "1.0001", "\"0.5\""}},
      {R"({"exclusiveMinimum": 0, "exclusiveMaximum": 1})", {"0", "1", "0.5", "\"x\"", "null"}},
      {R"({"enum": ["a", "b", null]})", {"\"a\"", "\"c\"", "null", "0", "false", "[\"a\"]"}},
      {R"({"const": "x"})", {"\"x\"", "\"X\"", "null", "1"}},
      {R"({"const": true})", {"true", "false", "1", "\"true\""}},
      {R"({"minLength": 2, "maxLength": 3})",
       {"\"a\"", "\"ab\"", "\"abcd\"", "\"\u00e9\u00e9\"", "\"\u00e9\u00e9\u00e9\u00e9\"", "\"a\\u0000bc\"", "5"}},
      {R"({"pattern": "^[a-z0-9][a-z0-9._-]*$"})",
       {"\"abc\"", "\"a.b-c_d\"", "\"Abc\"", "\"abc\\n\"", "\"ab c\"", "\"\u00e9\"", "\"\"", "1", "\"-a\""}},
      {R"({"pattern": "b{2,3}"})", {"\"abb\"", "\"ab\"", "\"xbbbbx\""}},
      {R"({"pattern": "(?:ab|cd)+$"})", {"\"xabcd\"", "\"abx\"", "\"cd\""}},
      {R"({"required": ["a", "b"]})", {"{\"a\": 1, \"b\": 2}", "{\"a\": 1}", "{}", "[]", "\"a\""}},
      {R"({"properties": {"a": {"type": "string"}}, "additionalProperties": false})",
       {"{\"a\": \"x\"}", "{\"a\": 1}", "{\"b\": 1}", "{}", "[1]"}},
      {R"({"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number"}})",
       {"{\"a\": \"x\", \"b\": 1}", "{\"b\": \"x\"}", "{\"a\": 2}"}},
      {R"({"patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": false})",
       {"{\"x-a\": 1}", "{\"x-a\": \"1\"}", "{\"y\": 1}", "{}"}},
      {R"({"items": {"type": "string"}, "minItems": 1, "maxItems": 2})",
       {"[\"a\"]", "[]", "[\"a\", \"b\", \"c\"]", "[1]", "{\"0\": 1}"}},
      {R"({"allOf": [{"type": "string"}, {"minLength": 2}]})", {"\"ab\"", "\"a\"", "1"}},
      {R"({"anyOf": [{"type": "string"}, {"type": "integer"}]})", {"\"a\"", "1", "1.5", "null"}},
      {R"({"oneOf": [{"type": "number"}, {"type": "integer"}]})", {"1", "1.5", "\"a\""}},
      {R"({"not": {"type": "string"}})", {"1", "\"a\""}},
      {R"({"if": {"properties": {"t": {"const": "s"}}}, "then": {"required": ["s"]}, "else": {"required": ["o"]}})",
       {"{\"t\": \"s\", \"s\": 1}", "{\"t\": \"s\"}", "{\"t\": \"x\", \"o\": 1}", "{\"t\": \"x\"}", "{}", "1"}},
      {R"({"$defs": {"s": {"type": "string", "minLength": 1}}, "properties": {"a": {"$ref": "#/$defs/s"}}})",
       {"{\"a\": \"x\"}", "{\"a\": \"\"}", "{\"a\": 1}", "{}"}},
      {R"({"$defs": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/s", "maxLength": 2}}})",
       {"{\"a\": \"xy\"}", "{\"a\": \"xyz\"}", "{\"a\": 1}"}},
      {R"({"definitions": {"n": {"type": "object", "properties": {"k": {"$ref": "#/definitions/n"}}}},
           "properties": {"r": {"$ref": "#/definitions/n"}}})",
       {"{}", "{\"r\": {\"k\": {\"k\": {}}}}", "{\"r\": {\"k\": {\"k\": 1}}}", "{\"r\": 1}", "1"}},
      {R"({"properties": {"a": true, "b": false}})", {"{\"a\": 1}", "{\"b\": 1}", "{}"}},
  };
  for (const auto &c : cases) {
    schema::Schema s(json::parse(c.schema), "t");
    INFO(c.schema << " " << s.compiled_refusal());
    REQUIRE(s.compiled() != nullptr);
    for (const char *v : c.values) agree(s, json::parse(v), std::string(c.schema) + " on " + v);
  }
}

TEST_CASE("the compiled validator agrees with valijson on the real store and its defects",
          "[schema][compiled][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  const auto &s = builtin();
  auto records = store::load_records(wiki / "kernel_wiki");
  REQUIRE(records.size() == 847);
  for (const auto &r : records) {
    REQUIRE(r.parse_error.empty());
    CHECK(s.compiled()->valid(r.record));
    agree(s, r.record, r.relpath);
  }
  // Every injected defect on every twentieth record.
  for (std::size_t i = 0; i < records.size(); i += 20) {
    for (const auto &[name, edit] : defects()) {
      auto rec = records[i].record;
      edit(rec);
      agree(s, rec, records[i].relpath + " / " + name);
    }
  }
  // Mutations at every node of one record of each type: a replacement
  // (rotating through the list), for object members the member removed,
  // for objects a stray member added.
  std::set<std::string> types_seen;
  const auto values = replacements();
  std::size_t rotate = 0;
  for (const auto &r : records) {
    if (!types_seen.insert(r.record.string_or("type")).second) continue;
    std::vector<Path> all;
    Path at;
    paths(r.record, at, all);
    for (const auto &p : all) {
      if (p.empty()) continue;
      {
        auto rec = r.record;
        *walk(rec, p, p.size()) = values[rotate++ % values.size()];
        agree(s, rec, r.relpath + " replaced at depth " + std::to_string(p.size()));
      }
      if (const auto *key = std::get_if<std::string>(&p.back())) {
        auto rec = r.record;
        walk(rec, p, p.size() - 1)->erase(*key);
        agree(s, rec, r.relpath + " without " + *key);
      }
      if (auto *node = walk(r.record, p, p.size()); node && node->is_object()) {
        auto rec = r.record;
        walk(rec, p, p.size())->set("x_mutant", 1);
        agree(s, rec, r.relpath + " with a stray member");
      }
    }
  }
  CHECK(types_seen.size() >= 4);
  // Schema::validate words an invalid record as valijson does.
  auto bad = records.front().record;
  defects().front().second(bad);
  auto worded = s.validate(bad);
  REQUIRE(!worded.empty());
  auto slow = s.validate_with_valijson(bad);
  REQUIRE(worded.size() == slow.size());
  for (std::size_t i = 0; i < slow.size(); ++i)
    CHECK(worded[i].path + worded[i].message == slow[i].path + slow[i].message);
}
