// The version row's codec (workspace/version_row.hpp): the rows otm-ingest
// and otm-ladder wrote for the example trace read and write back byte for
// byte, and a field of another type is an error naming it.
#include <catch2/catch.hpp>

#include "error_kind.hpp"
#include "golden.hpp"
#include "workspace/version_row.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using workspace::VersionRow;

using otm::test::mentions;
using testsupport::golden_lines;

TEST_CASE("version rows read and write back byte for byte", "[version-row]") {
  for (const char *file : {"example/versions.jsonl", "example-no-memory/versions.jsonl",
                           "example-no-profiles/versions.jsonl", "example/ladder.jsonl"}) {
    INFO(file);
    auto lines = golden_lines(file);
    REQUIRE(lines.size() > 3);
    for (const auto &line : lines) {
      auto row = VersionRow::parse(line, file);
      REQUIRE(row.ok());
      CHECK(json::to_line(row.value().to_json()) == line);
    }
  }
}

TEST_CASE("a version row's fields are typed", "[version-row]") {
  auto line = golden_lines("example/ladder.jsonl").front();
  VersionRow row = VersionRow::parse(line, "ladder.jsonl").value();
  CHECK(row.version == "v1");
  CHECK(row.n == 1);
  CHECK(row.has_commit);
  CHECK_FALSE(row.reverted);
  CHECK(row.parent == "87b4470bad16d00703cd6587d589b710df923479");
  CHECK(row.geomean() == 61.8);
  CHECK(row.gate_failure == std::nullopt);
  CHECK(row.geomean_source == "latency_us_geomean");
  // The ladder's judgement is what it appended: kept, in order, after.
  REQUIRE(row.later.size() > 0);
  CHECK(row.later.as_object()->front().first == "selection");
}

TEST_CASE("commit fields are written in the §2.2 order, when the row has a commit", "[version-row]") {
  VersionRow row;
  row.version = "v2";
  row.has_commit = true;
  row.subject_before_us = 10.0;
  row.subject_after_us = 9.0;
  row.subject_pct = -10.0;
  row.deadend_streak = 2;
  row.next_direction = "more";
  std::string line = json::to_line(row.to_json());
  CHECK(line.find(R"("reverted": false, "subject_before_us": 10.0, "subject_after_us": 9.0, )"
                  R"("subject_pct": -10.0, "deadend_streak": 2, "next_direction": "more"})") != std::string::npos);
  CHECK(line.find(R"("parent": null)") != std::string::npos);
  row.has_commit = false;
  CHECK(json::to_line(row.to_json()).find("subject") == std::string::npos);
}

TEST_CASE("a hand-written row reads with defaults for what it leaves out", "[version-row]") {
  VersionRow row = VersionRow::parse(R"({"version": "v3", "geomean_us": 12, "reverted": true})", "t").value();
  CHECK(row.version == "v3");
  CHECK(row.reverted);
  CHECK(row.geomean_us.is_int()); // as written: 12 stays 12, not 12.0
  CHECK(row.dsl.empty());
  CHECK_FALSE(row.deadend_items);
}

TEST_CASE("a missing or ill-typed field is an UnreadableInput error naming it", "[version-row]") {
  struct Case {
    const char *line, *field;
  };
  for (const auto &c : {Case{R"({"n": 1})", "`version`"}, Case{R"({"version": 3})", "`version`"},
                        Case{R"({"version": "v1", "n": "1"})", "`n`"}, Case{R"({"version": "v1", "n": 1.5})", "`n`"},
                        Case{R"({"version": "v1", "has_commit": 1})", "`has_commit`"},
                        Case{R"({"version": "v1", "subject": null})", "`subject`"},
                        Case{R"({"version": "v1", "parent": 7})", "`parent`"},
                        Case{R"({"version": "v1", "deadend_items": ["a", 2]})", "`deadend_items`"},
                        Case{R"({"version": "v1", "report_dirs": "d"})", "`report_dirs`"},
                        Case{R"({"version": "v1", "subject_pct": "3%"})", "`subject_pct`"}}) {
    INFO(c.line);
    auto row = VersionRow::parse(c.line, "versions.jsonl:4");
    REQUIRE_FALSE(row.ok());
    CHECK(row.error().kind() == ErrorKind::UnreadableInput);
    CHECK(mentions(row.error(), c.field));
    CHECK(mentions(row.error(), "versions.jsonl:4"));
    CHECK_THROWS_MATCHES(row.value(), Error, test::of_kind(ErrorKind::UnreadableInput));
  }
  auto not_json = VersionRow::parse("{", "versions.jsonl:9");
  REQUIRE_FALSE(not_json.ok());
  CHECK(not_json.error().kind() == ErrorKind::UnreadableInput);
  auto not_object = VersionRow::from_json(json::parse("[1]"));
  REQUIRE_FALSE(not_object.ok());
  CHECK(mentions(not_object.error(), "a list"));
}
