#include <catch2/catch.hpp>

#include "schema/builtin_schemas.hpp"
#include "schema/canonical.hpp"
#include "schema/profile.hpp"
#include "text/sha256.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("sha256 matches the FIPS test vectors", "[schema]") {
  CHECK(text::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(text::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(text::sha256_hex(std::string(1000, 'a')) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST_CASE("the widening check catches types, enums, requirements and openings", "[schema]") {
  auto base = json::parse(R"({"type": "object", "additionalProperties": false, "required": ["a"],
    "properties": {"schema": {"const": "clean-1.3"}, "a": {"type": "string", "enum": ["x", "y"]},
                   "n": {"type": "integer", "minimum": 0}}})");
  CHECK(schema::widening_violations(base, base).empty());
  auto narrowed = base;
  narrowed.find("properties")->find("a")->set("enum", json::Value::strings({"x"}));
  CHECK(schema::widening_violations(base, narrowed).empty());

  auto wide_type = base;
  wide_type.find("properties")->find("a")->set("type", json::Value::strings({"string", "null"}));
  CHECK(schema::widening_violations(base, wide_type).size() == 1);
  auto wide_enum = base;
  wide_enum.find("properties")->find("a")->set("enum", json::Value::strings({"x", "y", "z"}));
  CHECK(schema::widening_violations(base, wide_enum).size() == 1);
  auto dropped = base;
  dropped.set("required", json::Value::array());
  CHECK(schema::widening_violations(base, dropped).size() == 1);
  auto reopened = base;
  reopened.set("additionalProperties", true);
  CHECK(schema::widening_violations(base, reopened).size() == 1);
  auto lowered = base;
  lowered.find("properties")->find("n")->set("minimum", -1);
  CHECK(schema::widening_violations(base, lowered).size() == 1);
  auto added = base;
  added.find("properties")->set("b", json::Value::object());
  CHECK(schema::widening_violations(base, added).size() == 1);
  auto renamed = base;
  renamed.find("properties")->find("schema")->set("const", "clean-2");
  CHECK(schema::widening_violations(base, renamed).size() >= 1);
}

TEST_CASE("a patch that no longer applies names its index and path", "[schema]") {
  auto base = json::parse(schema::builtin_store_schema_text());
  auto list = schema::parse_patch_list(json::parse(schema::builtin_patch_list_text()), "p");
  REQUIRE(list.patches.size() == 7);
  auto profile = schema::generate_profile(base, list);
  CHECK(*profile.get("x-profile-of").get("base_sha256").as_string() == schema::base_fingerprint(base));
  base.find("properties")->erase("level");
  try {
    schema::generate_profile(base, list);
    FAIL("generation should refuse");
  } catch (const schema::ProfileError &e) {
    CHECK(std::string(e.what()).find("patch 0 (set properties.level.enum)") != std::string::npos);
  }
}
