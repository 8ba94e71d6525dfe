#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <filesystem>

#include "schema/builtin_schemas.hpp"
#include "schema/canonical.hpp"
#include "schema/json_schema.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {
schema::Schema builtin_schema() { return schema::Schema(json::parse(schema::builtin_store_schema_text()), "builtin"); }
} // namespace

TEST_CASE("the committed clean-1.3 schema equals the store's contract structurally", "[schema]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  auto ours = json::parse_file(fs::path(otm::testing::source_dir()) / "schema/clean-1.3.schema.json");
  auto theirs = json::parse_file(wiki / "schema/kernel/schema.json");
  std::set<std::string> annotations = {"description", "title", "$id"};
  CHECK(schema::first_difference(ours, theirs, annotations) == "");
  // The compiled-in copy is the committed file.
  CHECK(schema::structurally_equal(json::parse(schema::builtin_store_schema_text()), ours, {}));
  // And the comparison is not vacuous: a changed enum is a difference.
  auto changed = ours;
  changed.find("properties")->find("level")->set("enum", json::Value::strings({"operator"}));
  CHECK(schema::first_difference(changed, theirs, annotations) == "/properties/level/enum");
}

TEST_CASE("every real store record validates against the built-in schema", "[schema][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  auto schema = builtin_schema();
  auto records = store::load_records(wiki / "kernel_wiki");
  REQUIRE(records.size() == 847);
  std::size_t invalid = 0;
  for (const auto &r : records) {
    REQUIRE(r.parse_error.empty());
    auto errors = schema.validate(r.record);
    if (!errors.empty()) {
      ++invalid;
      INFO(r.relpath << ": " << errors.front().path << ": " << errors.front().message);
      CHECK(errors.empty());
    }
  }
  CHECK(invalid == 0);
}

TEST_CASE("validation reports every error with its path", "[schema]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  auto schema = builtin_schema();
  auto records = store::load_records(wiki / "kernel_wiki");
  REQUIRE(!records.empty());
  auto r = records.front().record;
  r.set("level", "planet");
  r.set("unexpected", 1);
  r.find("payload")->set("goal", "");
  auto errors = schema.validate(r);
  std::set<std::string> paths;
  for (const auto &e : errors) paths.insert(e.path);
  CHECK(paths.count("level"));
  CHECK(paths.count("payload/goal"));
  CHECK(paths.count("<root>")); // additional property at the top
  CHECK(errors.size() >= 3);
}

TEST_CASE("2020-12-only keywords are refused, $ref siblings are applied", "[schema]") {
  auto doc = json::parse(R"({"type": "object", "prefixItems": []})");
  CHECK_THROWS_AS(schema::Schema(doc, "t"), schema::SchemaError);
  auto with_sibling = json::parse(
      R"({"$defs": {"s": {"type": "string"}}, "type": "object",
          "properties": {"a": {"$ref": "#/$defs/s", "minLength": 3}}})");
  schema::Schema s(with_sibling, "t");
  CHECK(s.validate(json::parse(R"({"a": "abcd"})")).empty());
  CHECK(!s.validate(json::parse(R"({"a": "ab"})")).empty());
  CHECK(!s.validate(json::parse(R"({"a": 5})")).empty());
}
