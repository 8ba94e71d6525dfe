#include <catch2/catch.hpp>

#include "text/regex.hpp"
#include "text/utf8.hpp"

using otm::text::Regex;

TEST_CASE("regex search, match and fullmatch anchor like Python's re", "[regex]") {
  Regex v("(?i)^(v\\d+)\\s*:");
  auto m = v.search("V12: kept");
  REQUIRE(m);
  CHECK((*m)[1] == "V12");
  Regex digits("\\d+");
  CHECK(digits.search("ab12"));
  CHECK_FALSE(digits.match("ab12"));
  CHECK(digits.fullmatch("12"));
  CHECK_FALSE(digits.fullmatch("12a"));
}

TEST_CASE("regex is Unicode-aware (UTF + UCP)", "[regex]") {
  Regex word("^\\w+$");
  CHECK(word.search("µs"));
  Regex us("(\\d+)\\s*(?:us|\\x{00b5}s|\\x{03bc}s)");
  auto m = us.search("60.1→59 µs");
  REQUIRE(m);
  CHECK((*m)[1] == "59");
}

TEST_CASE("regex dot excludes only LF, $ matches before a final newline", "[regex]") {
  CHECK(Regex("a.b").search("a\rb"));
  CHECK_FALSE(Regex("a.b").search("a\nb"));
  CHECK(Regex("end$").search("the end\n"));
  CHECK_FALSE(Regex("end\\z").search("the end\n"));
}

TEST_CASE("regex replace and split_once", "[regex]") {
  Regex r("[^\\w]+");
  CHECK(r.replace("a-b  c", "_") == "a_b_c");
  Regex cut("\\.\\s+(?=[A-Za-z])");
  auto [head, tail] = cut.split_once("A slow. then more");
  CHECK(head == "A slow");
  REQUIRE(tail);
  CHECK(*tail == "then more");
  CHECK(Regex("x*").replace("abc", "-") == "-a-b-c-");
}

TEST_CASE("a bad pattern names itself", "[regex]") {
  CHECK_THROWS_WITH(Regex("(unclosed"), Catch::Contains("(unclosed"));
}

TEST_CASE("utf8 helpers count code points", "[utf8]") {
  using namespace otm::text;
  CHECK(code_points("µs→") == 3);
  CHECK(prefix_code_points("µs→x", 2) == "µs");
  CHECK(strip("  a b \n") == "a b");
  CHECK(is_valid_utf8("µ"));
  CHECK_FALSE(is_valid_utf8("\xc3"));
  CHECK(replace_invalid_utf8("a\xffz") == "a\xEF\xBF\xBDz");
  CHECK(to_lower("V12ABC") == "v12abc");
}

TEST_CASE("deep or repetitive text never aborts a match (issue 13)", "[regex]") {
  // Each /segment is one iteration of a group: PCRE2's default 32 KiB JIT
  // stack ran out at 4,000 ("JIT stack limit reached"); the thread's larger
  // JIT stack takes it, and past 16 MiB of stack (a million) the match is
  // redone by the interpreter on the heap.
  Regex path("(?:/[\\w.-]+)+");
  for (std::size_t depth : {4000u, 1000000u}) {
    std::string deep;
    for (std::size_t i = 0; i < depth; ++i) deep += "/a";
    std::optional<otm::text::Match> m;
    REQUIRE_NOTHROW(m = path.search(deep));
    REQUIRE(m);
    CHECK(m->end == deep.size());
  }
  std::string tokens;
  for (int i = 0; i < 12000; ++i) tokens += "v1, ";
  CHECK(Regex("^(?:v\\d+,\\s*)+$").match(tokens));
}

TEST_CASE("invalid UTF-8 replacements are counted", "[utf8]") {
  std::size_t n = 0;
  CHECK(otm::text::replace_invalid_utf8("a\xff\xfe"
                                        "b\xc3",
                                        &n) == "a\xEF\xBF\xBD\xEF\xBF\xBD"
                                               "b\xEF\xBF\xBD");
  CHECK(n == 3);
  CHECK(otm::text::replace_invalid_utf8("µs", &n) == "µs");
  CHECK(n == 3);
}
