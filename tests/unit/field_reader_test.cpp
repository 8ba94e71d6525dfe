// The one reader of typed fields (workspace/field_reader.hpp) that the
// segment and version-row codecs and the step-record reader share: each
// rule's sentence, a codec's first error, a lenient reader's every problem.
#include <catch2/catch.hpp>

#include "error_kind.hpp"
#include "workspace/field_reader.hpp"
#include "json/parse.hpp"

using namespace otm;
using otm::test::mentions;
using workspace::FieldReader;

TEST_CASE("a field of another type is left as it was and named in a sentence", "[field-reader]") {
  FieldReader r("a segment", "otm-partition");
  std::int64_t n = 7;
  CHECK_FALSE(r.integer("n", json::parse(R"("1")"), n));
  CHECK(n == 7);
  REQUIRE(r.failed());
  CHECK(r.error().kind() == ErrorKind::UnreadableInput);
  CHECK(std::string(r.error().what()) == "a segment's `n` is a string, not an integer (as otm-partition writes it)");

  std::optional<std::string> sha = "x";
  FieldReader ok("a segment");
  CHECK(ok.string_or_null("sha", json::parse("null"), sha));
  CHECK_FALSE(sha);
  std::optional<std::vector<std::string>> items;
  CHECK(ok.strings("items", json::parse(R"(["a", "b"])"), items));
  CHECK(items == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(ok.failed());
  CHECK(ok.members(json::parse("[1]")) == nullptr);
  CHECK(std::string(ok.error().what()) == "a segment is a list, not an object");
}

TEST_CASE("a lenient reader reads on and reports every field, named bare", "[field-reader]") {
  FieldReader r;
  CHECK_FALSE(r.is_number("performance.latency_us", json::parse("true")));
  CHECK(r.is_list("search_log", json::parse("[]")));
  CHECK_FALSE(r.is_object("profile_evidence", json::parse("3")));
  CHECK(r.problems() ==
        "performance.latency_us is a boolean, not a number; profile_evidence is a number, not an object");
}

TEST_CASE("rows read with a codec name the file and row of the first that fails", "[field-reader]") {
  auto read = [](const json::Value &v) -> Result<int> {
    if (v.is_int()) return static_cast<int>(*v.as_int());
    return Error(ErrorKind::UnreadableInput, "not a number");
  };
  std::vector<json::Value> rows{json::parse("1"), json::parse("2")};
  CHECK(workspace::read_rows<int>(rows, "rows.jsonl", +read) == std::vector<int>{1, 2});
  rows.push_back(json::parse(R"("3")"));
  try {
    workspace::read_rows<int>(rows, "rows.jsonl", +read);
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::UnreadableInput);
    CHECK(mentions(e, "rows.jsonl: row 3: not a number"));
  }
}
