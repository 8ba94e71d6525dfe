#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>
#include <stdexcept>

#include "error_kind.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "schema/json_schema.hpp"
#include "schema/profile.hpp"
#include "text/regex.hpp"
#include "tool/exit_codes.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

// Runs `body` under run_tool, capturing what it prints on stderr.
std::pair<int, std::string> run_capturing(const std::function<int()> &body) {
  std::ostringstream err;
  auto *old = std::cerr.rdbuf(err.rdbuf());
  int code = tool::run_tool("otm-x", body);
  std::cerr.rdbuf(old);
  return {code, err.str()};
}

} // namespace

TEST_CASE("run_tool is where an error's kind becomes the exit code", "[cli]") {
  CHECK(run_capturing([] { return 0; }) == std::pair<int, std::string>{0, ""});
  CHECK(run_capturing([] { return 1; }).first == 1);
  CHECK(run_capturing([]() -> int { throw Error(ErrorKind::NegativeVerdict, "ids clash"); }) ==
        std::pair<int, std::string>{1, "otm-x: ids clash\n"});
  for (auto kind : {ErrorKind::Usage, ErrorKind::UnreadableInput, ErrorKind::Io, ErrorKind::Refused})
    CHECK(run_capturing([kind]() -> int { throw Error(kind, "no"); }) == std::pair<int, std::string>{2, "otm-x: no\n"});
  CHECK(run_capturing([]() -> int { throw io::IoError("f: unreadable"); }) ==
        std::pair<int, std::string>{2, "otm-x: f: unreadable\n"});
  CHECK(run_capturing([]() -> int { return json::parse("{", "in.json").size() > 0; }).first == 2);
  CHECK(run_capturing([]() -> int { throw std::logic_error("bug"); }) ==
        std::pair<int, std::string>{2, "otm-x: internal error: bug\n"});
  CHECK(run_capturing([]() -> int { throw Error(ErrorKind::Internal, "bug"); }) ==
        std::pair<int, std::string>{2, "otm-x: internal error: bug\n"});
}

TEST_CASE("the named errors of lib/ are otm::Errors, reported by their message, not as internal", "[cli]") {
  // A malformed schema, a record that cannot be placed, a bad pattern: each
  // was a std::runtime_error once and surfaced as "internal error".
  json::Value not_an_object = json::parse("[1]", "t");
  CHECK(run_capturing([&]() -> int {
          schema::Schema(not_an_object, "s.json");
          return 0;
        }) == std::pair<int, std::string>{2, "otm-x: s.json: a JSON Schema must be an object\n"});
  CHECK_THROWS_MATCHES(record::inside("/store/records", "../x.json"), Error, test::of_kind(ErrorKind::Refused));
  CHECK_THROWS_MATCHES(text::Regex("("), Error, test::of_kind(ErrorKind::UnreadableInput));
  CHECK_THROWS_MATCHES(schema::parse_patch_list(json::parse("{}", "p"), "p.json"), Error,
                       test::of_kind(ErrorKind::UnreadableInput));
  auto [code, err] = run_capturing([]() -> int {
    text::Regex("(");
    return 0;
  });
  CHECK(code == 2);
  CHECK(err.find("internal error") == std::string::npos);
}

// Issue 27: a trace's control characters (ESC, NUL in an operator name)
// never reach the terminal raw: every diagnostic a tool prints, its error
// and its warnings, is escaped where diagnostics are printed.
TEST_CASE("run_tool escapes control characters in every diagnostic", "[cli][security]") {
  auto [code, err] = run_capturing([]() -> int {
    std::cerr << "warning: operator soft\x1b[2Jmax" << '\n';
    std::cerr << std::string("nul\0here", 8) << " bel\x07 del\x7f tab\tkept\n";
    std::cerr << "split \xe6";
    std::cerr << "\xb3\xa8 whole, \xff alone\n";
    throw Error(ErrorKind::Refused, "name \x1b]0;owned\x07 refused");
  });
  CHECK(code == 2);
  CHECK(err == "warning: operator soft\\x1b[2Jmax\n"
               "nul\\x00here bel\\x07 del\\x7f tab\tkept\n"
               "split \xe6\xb3\xa8 whole, \\xff alone\n"
               "otm-x: name \\x1b]0;owned\\x07 refused\n");
  // Restored afterwards: what is written outside a tool's run is the caller's.
  std::ostringstream after;
  auto *old = std::cerr.rdbuf(after.rdbuf());
  std::cerr << "\x1b";
  std::cerr.rdbuf(old);
  CHECK(after.str() == "\x1b");
}
