// The trace reading policy (trace::TraceFiles) and the limits it and the
// other readers of untrusted input enforce, each with its named message.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "config/config.hpp"
#include "gates/context.hpp"
#include "store/store_reader.hpp"
#include "trace/step_record.hpp"
#include "trace/trace_files.hpp"
#include "trace/trace_location.hpp"
#include "trace/version_key.hpp"
#include "trace_fixture.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;

TEST_CASE("the trace reading policy lists every file it does not read", "[trace][security]") {
  test::TempDir tmp;
  fs::path t = tmp.path() / "trace";
  test::write_text(t / "memory" / "v1.json", R"({"performance": {"latency_us_geomean": 10}})");
  test::write_text(t / "memory" / "v2.json", std::string(2000, ' ') + "{}");
  test::write_text(tmp.path() / "secret.json", "{}");
  fs::create_symlink(tmp.path() / "secret.json", t / "memory" / "v3.json");
  REQUIRE(::mkfifo((t / "memory" / "v4.json").c_str(), 0600) == 0);
  fs::create_directories(t / "memory" / "v5.json");
  fs::create_symlink("gone.json", t / "memory" / "v6.json");
  test::write_text(t / "memory" / "v7\xff.json", "{}");
  config::Limits limits;
  limits.max_file_bytes = 1000;
  trace::TraceFiles files(t, limits);
  auto scan = trace::scan_memory(files);
  CHECK(scan.records.size() == 1);
  CHECK_FALSE(files.text("definition.json")); // missing: not a skip
  CHECK(json::to_line(files.skipped_json()) ==
        R"j([{"file": "memory/v2.json", "why": "2002 bytes, over the limit of 1000 (limits.max_file_bytes)"}, )j"
        R"j({"file": "memory/v3.json", "why": "a symbolic link or path leading out of the trace"}, )j"
        R"j({"file": "memory/v4.json", "why": "a FIFO, not a regular file"}, )j"
        R"j({"file": "memory/v5.json", "why": "a directory, not a regular file"}, )j"
        R"j({"file": "memory/v6.json", "why": "a dangling symbolic link (or removed while read)"}, )j"
        "{\"file\": \"memory/v7\xEF\xBF\xBD.json\", \"why\": \"the file name is not valid UTF-8\"}]");
  CHECK(files.valid_utf8("ok \xff\xfe", "commit 1a2b subject") == "ok \xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(json::to_line(files.invalid_utf8_json()) ==
        R"({"replaced": 2, "sources": [{"source": "commit 1a2b subject", "replaced": 2}]})");
}

TEST_CASE("limits: defaults are the shipped data, overrides are checked", "[config][security]") {
  auto shipped = config::Config::defaults().limits();
  config::Limits compiled;
  CHECK(shipped.max_file_bytes == compiled.max_file_bytes);
  CHECK(shipped.max_input_bytes == compiled.max_input_bytes);
  CHECK(shipped.max_line_bytes == compiled.max_line_bytes);
  CHECK(shipped.max_json_depth == compiled.max_json_depth);
  CHECK(shipped.max_text_bytes == compiled.max_text_bytes);
  CHECK(shipped.max_subject_bytes == compiled.max_subject_bytes);
  CHECK(shipped.max_message_bytes == compiled.max_message_bytes);
  CHECK(shipped.max_name_bytes == compiled.max_name_bytes);
  CHECK(shipped.max_pitfalls_per_version == compiled.max_pitfalls_per_version);
  CHECK(shipped.max_segments_per_version == compiled.max_segments_per_version);
  CHECK(shipped.max_journal_entries == compiled.max_journal_entries);
  CHECK(shipped.max_reference_kernel_lines == compiled.max_reference_kernel_lines);
  CHECK(shipped.max_explain_items == compiled.max_explain_items);
  CHECK(config::Config::defaults().data().get("limits").size() == 13); // every limit is in the data

  test::TempDir tmp;
  auto load = [&](const std::string &text) {
    test::write_text(tmp.path() / "c.json", text);
    return config::Config::load(std::optional<fs::path>(tmp.path() / "c.json"));
  };
  CHECK(load(R"({"limits": {"max_json_depth": 5}})").limits().max_json_depth == 5);
  CHECK_THROWS_WITH(load(R"({"limits": {"max_json_depth": 0}})"),
                    Catch::Contains("limits.max_json_depth must be a positive integer"));
  CHECK_THROWS_WITH(load(R"({"limits": {"max_file_bytes": "1M"}})"), Catch::Contains("limits.max_file_bytes"));
  CHECK_THROWS_WITH(load(R"({"limits": {"max_line_bytes": 1.5}})"), Catch::Contains("limits.max_line_bytes"));
  CHECK_THROWS_WITH(load(R"({"limits": []})"), Catch::Contains("limits must be an object"));
}

TEST_CASE("limits: a step record's nesting and pitfalls", "[trace][security]") {
  config::Limits limits;
  limits.max_json_depth = 4;
  limits.max_pitfalls_per_version = 2;
  auto deep = trace::read_step_record("v3.json", R"({"a": {"b": {"c": {"d": {"e": 1}}}}})", limits);
  CHECK(deep.key.empty());
  CHECK(deep.variant.string_or("why") == "nested deeper than 4 levels (limits.max_json_depth)");
  CHECK(trace::read_step_record("v3.json", R"({"a": {"b": {"c": {"d": 1}}}})", limits).key == "v3");
  auto many = trace::read_step_record("v3.json", R"({"pitfalls_and_fixes": ["a", "b", "c", "d"]})", limits);
  CHECK(many.key == "v3");
  CHECK(many.fields.get("pitfalls").size() == 2);
  CHECK(many.variant.string_or("why") == "read within limits: pitfalls_and_fixes has 4 entries, the first 2 are "
                                         "read (limits.max_pitfalls_per_version)");
  limits.max_text_bytes = 5;
  auto cut = trace::read_step_record("v3.json", R"({"optimization": {"action_description": "tiled rows"}})", limits);
  CHECK(cut.fields.string_or("action_description") == "tiled");
  CHECK(cut.variant.string_or("why") ==
        "read within limits: 1 string(s) longer than 5 bytes cut (limits.max_text_bytes)");
  auto huge = trace::read_step_record("v99999999999999999999.json", "{}", limits);
  CHECK(huge.key.empty());
  CHECK(huge.variant.string_or("why") == "version number 99999999999999999999 is past 2^63-1");
}

TEST_CASE("version numbers past 2^63-1 or in other digits are refused", "[trace][security]") {
  CHECK(trace::version_number("v0") == 0);
  CHECK(trace::version_number("V012") == 12);
  CHECK(trace::version_number("v9223372036854775807") == INT64_MAX);
  CHECK_FALSE(trace::version_number("v9223372036854775808"));
  CHECK_FALSE(trace::version_number("v\xd9\xa3")); // Arabic-Indic three
  CHECK(trace::version_key_problem("v\xd9\xa3") == "version number '\xd9\xa3' is not ASCII digits");
  CHECK(trace::version_key_problem("v12").empty());
}

TEST_CASE("slugs are ASCII, never empty, and keep distinct names apart", "[trace][security]") {
  CHECK(trace::trace_slug("kernel_opt_001_example_fused_softmax_h4096") == "001-example-fused-softmax-h4096");
  CHECK(trace::trace_slug("my_trace") == "my-trace");
  std::set<std::string> seen;
  for (const char *name : {"___", "...",
                           "\xc3\xb1"
                           "andu",
                           "n\xcc\x83"
                           "andu",
                           "\xe6\xb3\xa8", "kernel_opt_2_\xe6\xb3\xa8"}) {
    std::string slug = trace::trace_slug(name);
    INFO(name << " -> " << slug);
    CHECK_FALSE(slug.empty());
    CHECK(std::all_of(slug.begin(), slug.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
    }));
    CHECK(seen.insert(slug).second);
  }
}

TEST_CASE("store records: links out of the store, nesting and non-objects are findings", "[store][security]") {
  test::TempDir tmp;
  fs::path s = tmp.path() / "store";
  test::write_text(s / "records" / "strategy" / "a.json", R"({"id": "a"})");
  test::write_text(s / "records" / "strategy" / "list.json", "[1]");
  test::write_text(s / "records" / "strategy" / "deep.json", R"({"a": {"b": {"c": 1}}})");
  test::write_text(tmp.path() / "outside.json", R"({"id": "outside"})");
  fs::create_symlink(tmp.path() / "outside.json", s / "records" / "strategy" / "escaped.json");
  config::Limits limits;
  limits.max_json_depth = 2;
  auto records = store::load_records(s, limits);
  REQUIRE(records.size() == 4);
  CHECK(records[0].parse_error.empty()); // a.json
  CHECK_THAT(records[1].parse_error, Catch::Contains("nested deeper than 2 levels (limits.max_json_depth)"));
  CHECK_THAT(records[2].parse_error, Catch::Contains("not read: a symbolic link or path leading out of the store"));
  CHECK(records[2].record.is_null());
  CHECK_THAT(records[3].parse_error, Catch::Contains("not a JSON object"));
  gates::Context ctx;
  ctx.records = gates::records_from_store(s, limits);
  CHECK(gates::unreadable_records("ids", ctx).size() == 3);
}

// Issue 27: slugging is not injective (`a_b`, `a-b` and `a b` all slug to
// `a-b`), so only the one name a slug spells back to keeps it plain; every
// other gets '_' and a hash of the raw name, which no plain slug holds.
TEST_CASE("slugs are unique by construction", "[trace][security]") {
  std::set<std::string> seen;
  for (const char *name : {"a_b", "a-b", "a b", "a.b", "a__b", "kernel_opt_7_a_b", "kernel_opt_7_a-b", "7_a_b",
                           "kernel_opt_07_a_b", "unset", "trace", "a_b_c", "a-b_c"}) {
    std::string slug = trace::trace_slug(name);
    INFO(name << " -> " << slug);
    CHECK(seen.insert(slug).second);
  }
  CHECK(trace::trace_slug("a_b") == "a-b");
  CHECK(trace::trace_slug("a-b").starts_with("a-b_"));
  CHECK(trace::trace_slug("kernel_opt_7_a_b") == "7-a-b");
  CHECK(trace::trace_slug("7_a_b").starts_with("7-a-b_"));
  CHECK(trace::trace_slug("unset") == "unset");
  // A plain slug never holds '_'; a hashed one holds exactly one.
  for (const auto &slug : seen) {
    auto n = std::count(slug.begin(), slug.end(), '_');
    CHECK(n <= 1);
  }
}
