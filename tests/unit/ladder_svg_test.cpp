// The ladder picture (report/ladder_svg.hpp): every version drawn once and
// marked by its judgement, versions without a measurement on their own band
// (never at zero), the ratchet as a step line through the floor after each
// row, a legend naming every category drawn, and markup that cannot be
// broken by a version's text. The example trace's picture is pinned by a
// golden (example_packets_test.cpp).
#include <catch2/catch.hpp>

#include <map>
#include <regex>

#include "ladder/ladder.hpp"
#include "ladder/self_test.hpp"
#include "report/ladder_svg.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

std::size_t count(const std::string &s, const std::string &needle) {
  std::size_t n = 0;
  for (auto pos = s.find(needle); pos != std::string::npos; pos = s.find(needle, pos + 1)) ++n;
  return n;
}

std::string picture(std::vector<json::Value> rows) {
  config::LadderThresholds t;
  auto annotated = ladder::annotate(rows, ladder::select(rows, t));
  return report::ladder_svg({"demo <op>", annotated, t});
}

// The y coordinate of the marker whose title starts with `version`.
double marker_y(const std::string &svg, const std::string &version) {
  std::regex re("<(circle|rect|polygon|path)[^>]*class=\"mark ([^\"]*)\"[^>]*><title>" + version + ": ");
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, re));
  std::string tag = m.str(0);
  std::smatch c;
  if (std::regex_search(tag, c, std::regex(R"re(cy="([0-9.]+)")re"))) return std::stod(c.str(1));
  if (std::regex_search(tag, c, std::regex(R"re(y="([0-9.]+)")re"))) return std::stod(c.str(1));
  if (std::regex_search(tag, c, std::regex(R"re((?:points|d)="M?[0-9.]+,([0-9.]+))re"))) return std::stod(c.str(1));
  FAIL("no coordinate in " << tag);
  return 0;
}

} // namespace

TEST_CASE("ladder picture: one marker per version, each judged, with a legend", "[ladder][svg]") {
  auto svg = picture(ladder::self_test_rows());
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("</svg>\n") == svg.size() - 7);
  CHECK(count(svg, "class=\"mark ") == 9);
  CHECK(count(svg, "class=\"mark baseline") == 1);
  CHECK(count(svg, "class=\"mark mega") == 1);
  CHECK(count(svg, "class=\"mark milestone") == 1);
  CHECK(count(svg, "class=\"mark deadend") == 1);
  CHECK(count(svg, "class=\"mark rejected-harness-re-baselining") == 1);
  CHECK(count(svg, "class=\"mark rejected-under-threshold") == 2);    // v2, v5
  CHECK(count(svg, "class=\"mark rejected-declares-no-change") == 1); // v6
  CHECK(count(svg, "class=\"mark rejected-infrastructure") == 1);     // v9
  // Every category drawn is in the legend, with its count.
  CHECK(svg.find("rejected: harness re-baselining (1)") != std::string::npos);
  CHECK(svg.find("dead-end (reverted, mined) (1)") != std::string::npos);
  CHECK(svg.find("best-so-far (the ratchet)") != std::string::npos);
  // The title is escaped.
  CHECK(svg.find("Ladder of demo &lt;op&gt;") != std::string::npos);
  CHECK(svg.find("<op>") == std::string::npos);
}

TEST_CASE("ladder picture: a version without a measurement is on the band, not at zero", "[ladder][svg]") {
  auto svg = picture(ladder::self_test_rows());
  // v9 has no geomean (infrastructure outage).
  CHECK(count(svg, " unmeasured\"") == 1);
  double band = marker_y(svg, "v9"), slowest = marker_y(svg, "v4"), fastest = marker_y(svg, "v7");
  CHECK(band > fastest + 40); // below the whole plot
  CHECK(slowest < fastest);   // log axis: slower is higher up
  CHECK(svg.find("v9: rejected: infrastructure, no measurement") != std::string::npos);
  CHECK(svg.find("no measurement (1): not drawn as zero") != std::string::npos);
}

TEST_CASE("ladder picture: the ratchet steps only where the floor moved", "[ladder][svg]") {
  auto svg = picture(ladder::self_test_rows());
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex(R"re(class="ratchet" d="([^"]*)")re")));
  std::string d = m.str(1);
  // Floors after the rows: 100, 99.9, 75, 75, 75, 60, 58, 58, 58 -> four
  // vertical steps (99.9, 75, 60, 58) and a final run to the right edge.
  CHECK(count(d, " V") == 4);
  CHECK(count(d, " H") == 5);
  CHECK(d.rfind("M", 0) == 0);
}

TEST_CASE("ladder picture: no measured version at all still draws, and says so", "[ladder][svg]") {
  json::Value row = json::Value::object();
  row.set("version", "v1");
  row.set("n", 1);
  row.set("has_commit", true);
  row.set("sha", std::string(40, 'a'));
  row.set("subject", "v1: first try </text><script>");
  auto svg = picture({row});
  CHECK(svg.find("no version has a usable geomean") != std::string::npos);
  CHECK(count(svg, " unmeasured\"") == 1);
  CHECK(svg.find("<script>") == std::string::npos);
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
}

TEST_CASE("ladder picture: hundreds of versions stay one bounded picture", "[ladder][svg]") {
  std::vector<json::Value> rows;
  double g = 900;
  for (int n = 1; n <= 400; ++n) {
    json::Value r = json::Value::object();
    r.set("version", "v" + std::to_string(n));
    r.set("n", n);
    r.set("has_commit", true);
    r.set("sha", std::string(40, 'a'));
    r.set("subject", "v" + std::to_string(n) + ": step");
    g *= n % 3 ? 0.99 : 1.01;
    r.set("geomean_us", g);
    rows.push_back(r);
  }
  auto svg = picture(rows);
  CHECK(count(svg, "class=\"mark ") == 400);
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex(R"re(<svg [^>]*width="([0-9.]+)")re")));
  CHECK(std::stod(m.str(1)) <= 78 + 1500 + 24 + 300);
  // Version labels thinned out so they never overlap (at most one per 30 units).
  CHECK(count(svg, "rotate(-40") < 60);
}

TEST_CASE("ladder picture: each rejection reason has a glyph or colour of its own in the legend", "[ladder][svg]") {
  // The example trace's ladder rejects for ten reasons; five of them once
  // shared one brown circle.
  auto rows = json::parse_lines_file(std::string(OTM_SOURCE_DIR) + "/testdata/golden/example/ladder.jsonl");
  auto svg = report::ladder_svg({"example", rows, config::LadderThresholds{}});
  std::regex mark(
      R"re(<(rect|circle|polygon|path) ([^>]*)class="legend-mark ([^"]+)" stroke="([^"]+)" fill="([^"]+)")re");
  std::map<std::string, std::string> glyph_of; // look -> category
  std::size_t rejected = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), mark); it != std::sregex_iterator(); ++it) {
    const auto &m = *it;
    std::string geometry = m.str(2);
    std::size_t vertices = std::count(geometry.begin(), geometry.end(), ',');
    std::string look = m.str(1) + " " + m.str(4) + " " + m.str(5) + " " + std::to_string(vertices);
    auto [seen, fresh] = glyph_of.emplace(look, m.str(3));
    INFO(m.str(3) << " looks like " << seen->second);
    CHECK(fresh);
    rejected += m.str(3).rfind("rejected-", 0) == 0;
  }
  CHECK(rejected == 10);
  // A reason without a style of its own still gets a look of its own.
  std::vector<json::Value> odd;
  for (const char *reason : {"first odd reason", "second odd reason"}) {
    json::Value r = json::Value::object();
    r.set("version", reason[0] == 'f' ? "v1" : "v2");
    r.set("selection", "rejected");
    r.set("reason", reason);
    odd.push_back(r);
  }
  auto odd_svg = report::ladder_svg({"odd", odd, config::LadderThresholds{}});
  std::smatch a, b;
  REQUIRE(std::regex_search(odd_svg, a,
                            std::regex(R"re(class="legend-mark rejected-first-odd-reason" stroke="([^"]+)")re")));
  REQUIRE(std::regex_search(odd_svg, b,
                            std::regex(R"re(class="legend-mark rejected-second-odd-reason" stroke="([^"]+)")re")));
  CHECK(a.str(1) != b.str(1));
}
