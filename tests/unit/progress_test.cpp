// cli::Progress: drawn in place, cleared after the last item, silent when
// not asked to draw (stderr is not a terminal under ctest), and safe to
// call from several threads.
#include <catch2/catch.hpp>

#include <sstream>
#include <thread>

#include "cmdline/progress.hpp"

using otm::cli::Progress;

TEST_CASE("progress: one line redrawn in place and cleared at the end", "[cli][progress]") {
  std::ostringstream out;
  {
    Progress p("otm-packet", "packets", 3, &out);
    REQUIRE(p.enabled());
    auto fn = p.fn();
    fn("strategy-v2");
    CHECK(out.str() == "\r\033[Kotm-packet: packets 1/3 strategy-v2");
    fn("strategy-v3"); // within 100 ms: not redrawn
    CHECK(out.str().find("2/3") == std::string::npos);
    fn("strategy-v5"); // the last: the line is cleared for the summary
    CHECK(out.str().ends_with("\r\033[K"));
  }
  CHECK(out.str().find("3/3") == std::string::npos);
}

TEST_CASE("progress: a run that stops early clears its line", "[cli][progress]") {
  std::ostringstream out;
  {
    Progress p("otm-validate", "gates", 16, &out);
    p.step("schema");
  }
  CHECK(out.str() == "\r\033[Kotm-validate: gates 1/16 schema\r\033[K");
}

TEST_CASE("progress: silent when stderr is not a terminal", "[cli][progress]") {
  if (Progress::stderr_is_terminal()) return; // run by hand in a terminal: nothing to check
  Progress p("otm-draft", "packets", 2);
  CHECK_FALSE(p.enabled());
  p.step("x"); // draws nothing, does not crash
}

TEST_CASE("progress: several workers report into one line", "[cli][progress]") {
  std::ostringstream out;
  {
    Progress p("otm-distill", "packets", 400, &out);
    auto fn = p.fn();
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; ++t)
      pool.emplace_back([&] {
        for (int i = 0; i < 100; ++i) fn("seg");
      });
    for (auto &t : pool) t.join();
  }
  CHECK(out.str().ends_with("\r\033[K"));
  CHECK(out.str().find("/400") != std::string::npos);
}
