#include <catch2/catch.hpp>

#include "trace/step_record.hpp"
#include "trace/trace_files.hpp"
#include "trace_fixture.hpp"
#include "workspace/trace_meta.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm::trace;
using otm::json::parse;
using otm::json::to_line;

TEST_CASE("§3.1 fields in table order with defaults", "[step_record]") {
  std::string problems;
  auto row = step_record_fields("v1.json", parse(R"({"performance": {"latency_us_geomean": 59.1,
      "latency_us_by_shape": {"a": 1.5}, "latency_us_arith_mean": 60}, "correctness": {"status": "PASS",
      "max_abs_err": 0.001}, "optimization": {"action_category": "tiling"}, "git_commit_hash": "abc"})"),
                                problems);
  CHECK(problems.empty());
  CHECK(to_line(row) ==
        R"({"memory_file": "v1.json", "geomean_us": 59.1, "by_shape": {"a": 1.5}, "arith_mean_us": 60, )"
        R"("speedup_vs_ref": null, "correctness_status": "PASS", "max_abs_err": 0.001, "max_rel_err": null, )"
        R"("gate_result": null, "gate_failure": null, "action_category": "tiling", "action_description": null, )"
        R"("expected_impact": null, "git_commit_hash": "abc", "open_directions": [], "pitfalls": [], )"
        R"("search_log": [], "profile_evidence": {}, "geomean_source": "latency_us_geomean"})");
}

TEST_CASE("geomean falls back to latency_us and says so, zero is corrupt", "[step_record]") {
  std::string problems;
  auto a = step_record_fields("v2.json", parse(R"({"performance": {"latency_us": 12}})"), problems);
  CHECK(to_line(a.get("geomean_us")) == "12");
  CHECK(a.string_or("geomean_source") == "latency_us");
  auto b = step_record_fields("v2.json", parse(R"({"performance": {"latency_us_geomean": 0, "latency_us": 0.0}})"),
                              problems);
  CHECK(b.get("geomean_us").is_null());
  CHECK(b.get("geomean_source").is_null());
  CHECK(problems.empty());
  auto c = step_record_fields("v2.json", parse(R"({"performance": {"latency_us_geomean": "59", "latency_us": 7.5}})"),
                              problems);
  CHECK(to_line(c.get("geomean_us")) == "7.5");
  CHECK_THAT(problems, Catch::Contains("performance.latency_us_geomean is a string, not a number"));
}

TEST_CASE("wrong types read as defaults and are reported", "[step_record]") {
  std::string problems;
  auto row = step_record_fields("v3.json", parse(R"({"performance": {"latency_us_geomean": true,
      "latency_us_by_shape": [1, 2]}, "correctness": "ok", "open_directions": {"a": 1}, "pitfalls_and_fixes": "x",
      "quality_gate": {"result": 5}, "optimization": "unrolled loops"})"),
                                problems);
  CHECK(row.get("geomean_us").is_null());
  CHECK(to_line(row.get("by_shape")) == "{}");
  CHECK(to_line(row.get("open_directions")) == "[]");
  CHECK(to_line(row.get("pitfalls")) == "[]");
  CHECK(row.get("gate_result").is_null());
  CHECK(row.string_or("action_description") == "unrolled loops");
  for (const char *f : {"performance.latency_us_geomean is a boolean", "performance.latency_us_by_shape is a list",
                        "correctness is a string", "open_directions is an object", "pitfalls_and_fixes is a string",
                        "quality_gate.result is a number"}) {
    INFO(f);
    CHECK_THAT(problems, Catch::Contains(f));
  }
}

TEST_CASE("§3.2 both pitfall vintages normalise to the older triple", "[step_record]") {
  CHECK(to_line(normalise_pitfall(parse(R"({"pitfall": "p", "explanation": "e", "fix": "f"})"))) ==
        R"({"pitfall": "p", "explanation": "e", "fix": "f"})");
  CHECK(to_line(normalise_pitfall(parse(R"({"error_type": "T", "error_message": "M", "root_cause": "R",
      "fix_applied": "F", "lesson": "L"})"))) ==
        R"({"pitfall": "M", "explanation": "R. L", "fix": "F", "error_type": "T", "error_message": "M", )"
        R"("root_cause": "R", "fix_applied": "F", "lesson": "L"})");
  auto b = normalise_pitfall(parse(R"({"error_type": "T", "root_cause": "R has L.", "lesson": "L"})"));
  CHECK(b.string_or("pitfall") == "T");
  CHECK(b.string_or("explanation") == "R has L."); // lesson already contained
  CHECK(b.get("fix").is_null());
  auto c = normalise_pitfall(parse(R"({"pitfall": "", "error_message": "M", "explanation": "E", "lesson": "L"})"));
  CHECK(c.string_or("pitfall") == "M"); // an empty older key does not win
  CHECK(c.string_or("explanation") == "E");
  CHECK(normalise_pitfall(parse(R"("bare")")).as_string());
  CHECK(normalise_pitfall(parse("null")).is_null());
}

TEST_CASE("memory/ classification in file order", "[step_record]") {
  otm::test::TempDir tmp;
  auto mem = tmp.path() / "memory";
  otm::test::write_text(mem / "V2.json", R"({"performance": {"latency_us_geomean": 5.0}})");
  otm::test::write_text(mem / "v2_rerun.json", "{}");
  otm::test::write_text(mem / "v3.json", "{not json");
  otm::test::write_text(mem / "v4.json", "[1, 2]");
  otm::test::write_text(mem / "v5.json", std::string("{\"a\": \"\xff\"}"));
  otm::test::write_text(mem / "notes.json", "{}");
  otm::test::write_text(mem / "v6.json", R"({"performance": {"latency_us_by_shape": "x"}})");
  otm::test::write_text(mem / ".hidden.json", "{}");
  otm::test::write_text(mem / "v7.txt", "{}");
  std::filesystem::create_directories(mem / "v8.json");
  TraceFiles files(tmp.path(), otm::config::Limits{});
  auto scan = scan_memory(files);
  REQUIRE(scan.records.size() == 2);
  CHECK(scan.records.count("v2"));
  CHECK(scan.records.count("v6"));
  CHECK(
      to_line(scan.variants) ==
      R"j([{"file": "notes.json", "why": "not a version name"}, {"file": "v2_rerun.json", "base": "v2", )j"
      R"j("suffix": "rerun"}, {"file": "v3.json", "why": "unparseable"}, {"file": "v4.json", "why": )j"
      R"j("not a JSON object (a list)"}, {"file": "v5.json", "why": "invalid UTF-8"}, {"file": "v6.json", )j"
      R"j("version": "v6", "why": "read with defaults: performance.latency_us_by_shape is a string, not an object"}])j");
}

TEST_CASE("step_record_path names where every row field is read from", "[step_record]") {
  // Every field set to a distinct value: the path must lead to that value.
  auto raw = parse(R"({"performance": {"latency_us_geomean": 59.1, "latency_us_by_shape": {"a": 1.5},
      "latency_us_arith_mean": 60, "speedup_vs_ref_geomean": 2.5}, "correctness": {"status": "PASS",
      "max_abs_err": 0.001, "max_rel_err": 0.002}, "quality_gate": {"result": "OK", "failure_reason": "r"},
      "optimization": {"action_category": "tiling", "action_description": "d", "expected_impact": "e"},
      "git_commit_hash": "abc", "open_directions": [{"direction": "x"}], "search_log": [1],
      "pitfalls_and_fixes": [{"pitfall": "p", "explanation": "q", "fix": "f"}], "profile_evidence": {"k": 1}})");
  std::string problems;
  auto row = step_record_fields("v1.json", raw, problems);
  REQUIRE(problems.empty());
  REQUIRE(row.get("geomean_source").is_string());
  const std::string source = *row.get("geomean_source").as_string();
  std::size_t checked = 0;
  for (const auto &[field, value] : *row.as_object()) {
    std::string path = step_record_path(field, source);
    if (field == "memory_file" || field == "geomean_source") {
      CHECK(path.empty());
      continue;
    }
    INFO(field << " -> " << path);
    REQUIRE(!path.empty());
    const otm::json::Value *at = &raw;
    for (std::size_t pos = 0; pos <= path.size();) {
      auto dot = path.find('.', pos);
      at = &at->get(path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos));
      pos = dot == std::string::npos ? path.size() + 1 : dot + 1;
    }
    CHECK(to_line(*at) == to_line(value));
    ++checked;
  }
  CHECK(checked == row.size() - 2);
  CHECK(step_record_path("geomean_us", source) == "performance.latency_us_geomean");
  CHECK(step_record_path("geomean_us").empty()); // no usable geomean: read from nowhere
  CHECK(step_record_path("no_such_field").empty());
}

TEST_CASE("a variant that measured its version again keeps its geomean and verdict", "[step_record][issue25]") {
  // Kit 55, P22: "v65_retry.json" re-measured v65 at 52.136 us after a
  // noisy run at 50.849; the descriptor keeps what the re-measurement says.
  otm::test::TempDir tmp;
  auto mem = tmp.path() / "memory";
  otm::test::write_text(mem / "v65.json", R"({"performance": {"latency_us_geomean": 50.849}})");
  otm::test::write_text(mem / "v65_retry.json",
                        R"({"performance": {"latency_us_geomean": 52.136}, "correctness": {"status": "PASS"}})");
  otm::test::write_text(mem / "v66_ncu.json", R"({"performance": {"latency_us_geomean": 0}})");
  TraceFiles files(tmp.path(), otm::config::Limits{});
  auto scan = scan_memory(files);
  CHECK(to_line(scan.variants) ==
        R"j([{"file": "v65_retry.json", "base": "v65", "suffix": "retry", "geomean_us": 52.136, )j"
        R"j("correctness_status": "PASS"}, {"file": "v66_ncu.json", "base": "v66", "suffix": "ncu"}])j");
  // Which suffixes are re-measurements is the configuration's.
  const otm::text::Regex retry("(?i)^(?:retry\\d*|ncu)$");
  const auto again = otm::workspace::TraceMeta::re_measurements_in(parse(to_line(scan.variants)), &retry);
  REQUIRE(again.count("v65") == 1);
  CHECK(again.at("v65").front().file == "v65_retry.json");
  CHECK(again.at("v65").front().geomean_us == 52.136);
  CHECK(again.count("v66") == 0); // no geomean
  const otm::text::Regex other("(?i)^(?:rerun)$");
  CHECK(otm::workspace::TraceMeta::re_measurements_in(parse(to_line(scan.variants)), &other).empty());
  CHECK(otm::workspace::TraceMeta::re_measurements_in(parse(to_line(scan.variants)), nullptr).empty());
}
