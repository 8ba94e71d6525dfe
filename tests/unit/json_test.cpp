#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "json/float_repr.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "json/writer.hpp"

using namespace otm::json;

TEST_CASE("floats are written in Python's repr", "[json]") {
  CHECK(python_float_repr(59.14) == "59.14");
  CHECK(python_float_repr(10.0) == "10.0");
  CHECK(python_float_repr(0.1) == "0.1");
  CHECK(python_float_repr(1e-05) == "1e-05");
  CHECK(python_float_repr(0.0001) == "0.0001");
  CHECK(python_float_repr(1e16) == "1e+16");
  CHECK(python_float_repr(1234567890123456.0) == "1234567890123456.0");
  CHECK(python_float_repr(-2.5) == "-2.5");
  CHECK(python_float_repr(24.92) == "24.92");
  CHECK(python_float_repr(1.0 / 3) == "0.3333333333333333");
}

TEST_CASE("numbers survive a parse/write round trip", "[json]") {
  auto v = parse(R"({"geomean": 59.14, "n": 3, "f": 10.0, "big": 12345678901234})");
  CHECK(to_line(v) == R"({"geomean": 59.14, "n": 3, "f": 10.0, "big": 12345678901234})");
  CHECK(v.get("n").is_int());
  CHECK(v.get("f").is_double());
}

TEST_CASE("line layout uses Python separators and keeps key order and UTF-8", "[json]") {
  Value o = Value::object();
  o.set("z", 1);
  o.set("a", Value::array());
  o.get("a");
  o.set("s", "µs → ok");
  Value arr;
  arr.push_back(true);
  arr.push_back(nullptr);
  o.set("arr", arr);
  o.set("empty", Value::object());
  CHECK(to_line(o) == "{\"z\": 1, \"a\": [], \"s\": \"µs → ok\", \"arr\": [true, null], \"empty\": {}}");
}

TEST_CASE("pretty layout is indent=1 with a final newline", "[json]") {
  auto v = parse(R"({"a": [1, 2.5], "b": {"c": null}, "d": [], "e": {}})");
  CHECK(to_pretty(v) == "{\n \"a\": [\n  1,\n  2.5\n ],\n \"b\": {\n  \"c\": null\n },\n \"d\": [],\n \"e\": {}\n}\n");
}

TEST_CASE("strings are escaped as JSON requires", "[json]") { CHECK(quote("a\"b\\c\nd\te") == R"("a\"b\\c\nd\te")"); }

TEST_CASE("duplicate keys keep the last value at the first position", "[json]") {
  auto v = parse(R"({"a": 1, "b": 2, "a": 3})");
  CHECK(to_line(v) == R"({"a": 3, "b": 2})");
}

TEST_CASE("invalid JSON and invalid UTF-8 name the source", "[json]") {
  CHECK_THROWS_WITH(parse("{", "memory/v1.json"), Catch::Contains("memory/v1.json"));
  CHECK_THROWS_AS(parse("\"\xff\"", "x"), ParseError);
}

TEST_CASE("JSONL errors name the line", "[json]") {
  CHECK_THROWS_WITH(parse_lines("{}\n\n{bad}\n", "rows.jsonl"), Catch::Contains("rows.jsonl:3"));
  CHECK(parse_lines("{}\n \n[1]\n").size() == 2);
}

TEST_CASE("truthiness follows Python", "[json]") {
  CHECK_FALSE(Value(0).truthy());
  CHECK_FALSE(Value(0.0).truthy());
  CHECK_FALSE(Value("").truthy());
  CHECK_FALSE(Value::array().truthy());
  CHECK(Value("x").truthy());
  CHECK(Value(1) == Value(1.0));
}

TEST_CASE("floats in Python's repr across the exponent range", "[json]") {
  CHECK(python_float_repr(0.5) == "0.5");
  CHECK(python_float_repr(100.0) == "100.0");
  CHECK(python_float_repr(123.456) == "123.456");
  CHECK(python_float_repr(-0.0) == "-0.0");
  CHECK(python_float_repr(1.5e-5) == "1.5e-05");
  CHECK(python_float_repr(-1.5e-5) == "-1.5e-05");
  CHECK(python_float_repr(1e15) == "1000000000000000.0");
  CHECK(python_float_repr(123456789012345680.0) == "1.2345678901234568e+17");
  CHECK(python_float_repr(1e100) == "1e+100");
  CHECK(python_float_repr(2.5e-300) == "2.5e-300");
  CHECK(python_float_repr(5e-324) == "5e-324");
  CHECK(python_float_repr(1.7976931348623157e308) == "1.7976931348623157e+308");
  std::string appended = "x";
  append_python_float_repr(appended, 59.14);
  CHECK(appended == "x59.14");
}

namespace {
// The escaping the line layout promises (RapidJSON's Writer table): control
// characters as \b \t \n \f \r or \u00XX, '"' and '\\'; all else as is.
std::string expected_literal(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      const char *named = c == '\b'   ? "\\b"
                          : c == '\t' ? "\\t"
                          : c == '\n' ? "\\n"
                          : c == '\f' ? "\\f"
                          : c == '\r' ? "\\r"
                                      : nullptr;
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04X", u);
      out += named ? named : buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}
} // namespace

TEST_CASE("every byte is escaped as RapidJSON's writer escapes it, at every offset of a word", "[json]") {
  for (int b = 0; b < 256; ++b) {
    for (std::size_t at = 0; at < 19; ++at) {
      std::string s(19, 'a');
      s[at] = static_cast<char>(b);
      INFO("byte " << b << " at " << at);
      CHECK(quote(s) == expected_literal(s));
      CHECK(to_line(Value(s)) == expected_literal(s));
      CHECK(written_as_is(s) == (quote(s) == "\"" + s + "\""));
    }
  }
  std::string mixed = "µs → \"q\"\\\x01\x1f\x7f\xff end";
  CHECK(quote(mixed) == expected_literal(mixed));
}

TEST_CASE("append_line appends what to_line writes, integers at their limits", "[json]") {
  auto v = parse(R"({"min": -9223372036854775808, "max": 9223372036854775807, "a": [{"b": [null, false]}, "x\ny"]})");
  CHECK(to_line(v) ==
        R"({"min": -9223372036854775808, "max": 9223372036854775807, "a": [{"b": [null, false]}, "x\ny"]})");
  std::string out = "[1]\n";
  append_line(out, v);
  CHECK(out == "[1]\n" + to_line(v));
  Value nan = Value::array();
  nan.push_back(std::nan(""));
  nan.push_back(-1.0 / 0.0);
  CHECK(to_line(nan) == "[null, null]");
}

TEST_CASE("duplicate keys among many: the last value at the first position", "[json]") {
  std::string text = "{";
  for (int i = 0; i < 60; ++i) text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  text += "\"k5\": \"five\", \"k59\": [59], \"\": 1, \"\": 2}";
  Value v = parse(text);
  REQUIRE(v.size() == 61);
  CHECK(v.as_object()->at(5).first == "k5");
  CHECK(v.get("k5") == Value("five"));
  CHECK(v.as_object()->at(59).second == parse("[59]"));
  CHECK(v.as_object()->back().first.empty());
  CHECK(v.get("") == Value(2));
  CHECK(v.get("k58") == Value(58));
}

TEST_CASE("a line written piece by piece, with written parts copied in, is to_line's", "[json]") {
  Value v = parse(R"({"a": [1, 2.5, "x\n"], "b": {"c": null, "d": "é"}, "e": []})");
  std::string text;
  Writer b(text, Writer::Layout::Line);
  b.begin_object();
  b.key("a").written(to_line(v.get("a")));
  b.key("b").value(v.get("b"));
  b.key("e").begin_array().end_array();
  b.end_object();
  CHECK(text == to_line(v));
  std::string list_text;
  Writer list(list_text, Writer::Layout::Line);
  list.begin_array();
  for (const auto &e : *v.get("a").as_array()) list.written(to_line(e));
  list.end_array();
  CHECK(list_text == to_line(v.get("a")));
}

TEST_CASE("an object's layout: members' texts, and one array's elements", "[json]") {
  std::string text = R"( {"schema": "s", "records": [ {"id": "a", "x": [1, {"y": "]"}]} , 2, "s\"}" ],
    "count": 3 } )";
  auto layout = object_layout(text, "records", "idx");
  REQUIRE(layout);
  REQUIRE(layout->elements);
  REQUIRE(layout->elements->size() == 3);
  // Each element's text is a view into `text` that parses to the element.
  Value whole = parse(text);
  for (std::size_t i = 0; i < 3; ++i) {
    auto t = (*layout->elements)[i];
    CHECK(t.data() >= text.data());
    CHECK(t.data() + t.size() <= text.data() + text.size());
    CHECK(parse(t) == (*whole.get("records").as_array())[i]);
  }
  REQUIRE(layout->members.size() == 2);
  CHECK(layout->members[0].first == "schema");
  CHECK(parse(layout->members[1].second) == Value(3));
  // Not an object, or no such array: said so; not JSON: refused.
  CHECK_FALSE(object_layout("[1, 2]", "records"));
  CHECK_FALSE(object_layout(R"({"records": {}})", "records")->elements);
  CHECK_FALSE(object_layout(R"({"records": [], "records": 1})", "records")->elements);
  CHECK(object_layout(R"({"records": []})", "records")->elements->empty());
  CHECK_THROWS_AS(object_layout(R"({"records": [1, 2] x)", "records", "idx"), ParseError);
  CHECK_THROWS_AS(object_layout(R"({"records": [1, 2]} x)", "records", "idx"), ParseError);
  CHECK_THROWS_AS(object_layout(R"({"records": [1, 2]} })", "records", "idx"), ParseError);
  CHECK_THROWS_AS(object_layout(R"({"records" [1, 2]})", "records", "idx"), ParseError);
  CHECK_THROWS_AS(object_layout("{\"records\": [\"\xff\"]}", "records", "idx"), ParseError);
  CHECK_THROWS_AS(object_layout(R"({"records": [1, 2], })", "records", "idx"), ParseError);
  CHECK_THROWS_AS(object_layout(R"({"records": [1, , 2]})", "records", "idx"), ParseError);
  CHECK_THROWS_AS(object_layout(R"({"rec\qords": []})", "records", "idx"), ParseError);
  // A key is unescaped; a view runs to the comma or bracket after its value
  // (where the keys index has always placed an entry's end).
  auto escaped = object_layout(R"({"rec\u006frds": [ {"a": 1} ,"s"
  ], "c\"d": 2 })",
                               "records");
  REQUIRE(escaped->elements);
  CHECK(*escaped->elements == std::vector<std::string_view>{R"({"a": 1} )", "\"s\"\n  "});
  REQUIRE(escaped->members.size() == 1);
  CHECK(escaped->members[0] == std::pair<std::string, std::string_view>{"c\"d", "2 "});
}
