// The small text helpers the drafters share: lists as prose, and code
// compared with its spacing taken out.
#include <catch2/catch.hpp>

#include "text/code_list.hpp"
#include "text/utf8.hpp"

using namespace otm;

TEST_CASE("a list reads as prose, with the conjunction asked for", "[text]") {
  CHECK(text::prose_list({}).empty());
  CHECK(text::prose_list({"a"}) == "a");
  CHECK(text::prose_list({"a", "b"}) == "a and b");
  CHECK(text::prose_list({"did not build", "failed its check", "x"}, "or") == "did not build, failed its check or x");
  CHECK(text::quoted_code_list({"VEC", "BLOCK_V"}) == "`VEC` and `BLOCK_V`");
}

TEST_CASE("code without its white space compares equal however it was spaced", "[text]") {
  CHECK(text::without_whitespace("  x = f( a,\tb )\r\n") == "x=f(a,b)");
  CHECK(text::without_whitespace("") == "");
  CHECK(text::without_whitespace("BLOCK_S = 16") == text::without_whitespace("BLOCK_S=16"));
}
