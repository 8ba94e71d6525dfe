// The ladder verdict's codec (workspace/ladder_verdict.hpp): the verdicts
// otm-ladder wrote for the example traces read back, typed, and written
// again byte for byte, in the ladder's order; a field of another type is an
// UnreadableInput error naming it.
#include <catch2/catch.hpp>

#include "error_kind.hpp"
#include "golden.hpp"
#include "workspace/ladder_verdict.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using workspace::LadderVerdict;

using otm::test::mentions;
using testsupport::golden_lines;

namespace {

constexpr const char *kFields[] = {"selection",           "reason",       "improve_pct", "best_before_us",
                                   "best_before_version", "best_after_us"};

} // namespace

TEST_CASE("ladder verdicts read and write back byte for byte", "[ladder-verdict]") {
  for (const char *file : {"example/ladder.jsonl", "example-no-memory/ladder.jsonl", "example-no-profiles/ladder.jsonl",
                           "example-no-hardware/ladder.jsonl"}) {
    INFO(file);
    auto lines = golden_lines(file);
    REQUIRE(lines.size() > 3);
    for (const auto &line : lines) {
      json::Value row = json::parse(line, file);
      auto verdict = LadderVerdict::from_json(row);
      REQUIRE(verdict.ok());
      // The version row's own fields, then the verdict written after them.
      json::Value rewritten = row;
      for (const char *key : kFields) rewritten.erase(key);
      verdict.value().write_into(rewritten);
      CHECK(json::to_line(rewritten) == line);
      // The same verdict from what a typed version row kept of the row.
      auto kept = LadderVerdict::of(workspace::VersionRow::from_json(row).value());
      REQUIRE(kept.ok());
      json::Value again = json::Value::object();
      kept.value().write_into(again);
      json::Value first = json::Value::object();
      verdict.value().write_into(first);
      CHECK(json::to_line(again) == json::to_line(first));
    }
  }
}

TEST_CASE("a ladder verdict's fields are typed", "[ladder-verdict]") {
  auto rows = golden_lines("example/ladder.jsonl");
  auto baseline = LadderVerdict::from_json(json::parse(rows.front(), "ladder.jsonl")).value();
  CHECK(baseline.selection == "baseline");
  CHECK(baseline.accepted());
  CHECK_FALSE(baseline.reason);
  CHECK_FALSE(baseline.improve_pct);
  CHECK(baseline.best_after_us == 61.8);
  // A hand-written row carries what it tests: the rest reads as defaults.
  auto bare = LadderVerdict::from_json(json::parse(R"j({"version": "v2", "selection": "rejected",
      "reason": "under 1.5% (0.10%)", "best_before_us": 12})j"))
                  .value();
  CHECK(bare.selection == "rejected");
  CHECK_FALSE(bare.accepted());
  CHECK(bare.reason == "under 1.5% (0.10%)");
  CHECK(bare.best_before_us == 12.0);
  CHECK_FALSE(bare.best_before_version);
  CHECK(LadderVerdict::from_json(json::parse(R"({"version": "v3"})")).value().selection.empty());
  // Written whole, absent fields as null, in the ladder's order.
  json::Value out = json::parse(R"({"version": "v2"})");
  bare.write_into(out);
  CHECK(json::to_line(out) == R"j({"version": "v2", "selection": "rejected", "reason": "under 1.5% (0.10%)", )j"
                              R"j("improve_pct": null, "best_before_us": 12.0, "best_before_version": null, )j"
                              R"j("best_after_us": null})j");
}

TEST_CASE("a ladder verdict's field of another type is an UnreadableInput error naming it", "[ladder-verdict]") {
  struct Case {
    const char *line, *field;
  };
  for (const auto &c : {Case{R"({"selection": 1})", "`selection`"}, Case{R"({"selection": null})", "`selection`"},
                        Case{R"({"reason": ["x"]})", "`reason`"}, Case{R"({"improve_pct": "3%"})", "`improve_pct`"},
                        Case{R"({"best_before_us": true})", "`best_before_us`"},
                        Case{R"({"best_before_version": 3})", "`best_before_version`"},
                        Case{R"({"best_after_us": {}})", "`best_after_us`"}}) {
    INFO(c.line);
    auto verdict = LadderVerdict::from_json(json::parse(c.line));
    REQUIRE_FALSE(verdict.ok());
    CHECK(verdict.error().kind() == ErrorKind::UnreadableInput);
    CHECK(mentions(verdict.error(), c.field));
    CHECK(mentions(verdict.error(), "otm-ladder"));
    CHECK_THROWS_MATCHES(verdict.value(), Error, test::of_kind(ErrorKind::UnreadableInput));
  }
  auto not_object = LadderVerdict::from_json(json::parse("[1]"));
  REQUIRE_FALSE(not_object.ok());
  CHECK(mentions(not_object.error(), "a list"));
  // Read as rows, the error names the source and the row.
  std::vector<json::Value> rows = {json::parse(R"({"selection": "baseline"})"),
                                   json::parse(R"({"selection": "milestone", "improve_pct": "12"})")};
  CHECK_THROWS_MATCHES(workspace::read_ladder_verdicts(rows, "work/ladder.jsonl"), Error,
                       Catch::Predicate<Error>([](const Error &e) {
                         return e.kind() == ErrorKind::UnreadableInput && mentions(e, "work/ladder.jsonl: row 2") &&
                                mentions(e, "`improve_pct`");
                       }));
}
