#include <catch2/catch.hpp>

#include "record/established_fact.hpp"
#include "record/id_format.hpp"
#include "record/leak_shapes.hpp"
#include "record/store_layout.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("ids and episode keys have the spec's shape", "[record]") {
  record::IdParts p{
      "nvidia", "b200", "triton", "fused-softmax-h4096", "mlp-activation", "strategy", "vectorized-row-loads", 's', 1};
  CHECK(record::make_id(p) == "nvidia.b200.triton.fused-softmax-h4096.vectorized-row-loads-s01");
  p.record_type = "anti-strategy";
  p.technique = "direct-path-2x-slower";
  p.marker = 't';
  p.disc = 2;
  CHECK(record::make_id(p) == "nvidia.b200.triton.mlp-activation.anti.direct-path-2x-slower-t02");
  CHECK(record::make_episode_key("blackwell", "triton", "fused-softmax-h4096", "direct-path--2x-slower") ==
        "blackwell|triton|fused-softmax-h4096|direct_path_2x_slower|operator");
  CHECK(record::make_episode_key("a", "b", "c-d", "---x-y---z-") == "a|b|c-d|_x_y_z_|operator");
  CHECK(record::make_episode_key("", "", "", "") == "||||operator");
  auto d = record::parse_discriminator("a.b.c.d.x-t12");
  REQUIRE(d);
  CHECK(d->marker == 't');
  CHECK(d->number == 12);
  CHECK(record::is_valid_id("nvidia.b200.triton.x.y-s01"));
  CHECK_FALSE(record::is_valid_id("Nvidia.x"));
  CHECK_FALSE(record::is_valid_id("../x"));
}

TEST_CASE("store layout refuses components that could leave the store", "[record]") {
  auto rec = json::parse(R"({"id": "a.b.c.d.e-s01", "type": "strategy",
    "retrieval": {"scope": {"vendor": "nvidia", "arch": "blackwell", "dsl": "triton", "operator_family": "softmax"}}})");
  CHECK(record::record_relpath(rec) == "strategy/nvidia/blackwell/triton/softmax/a.b.c.d.e-s01.json");
  for (const char *bad : {"../../x", "a/b", "..", "", ".hidden", "a\nb", "a b"}) {
    auto copy = rec;
    json::Value scope = copy.get("retrieval").get("scope");
    scope.set("operator_family", bad);
    json::Value retrieval = copy.get("retrieval");
    retrieval.set("scope", scope);
    copy.set("retrieval", retrieval);
    if (std::string(bad).empty()) {
      CHECK(record::record_dir(copy) == "strategy/nvidia/blackwell/triton/misc");
    } else {
      CHECK_THROWS_AS(record::record_dir(copy), record::LayoutError);
    }
  }
  auto no_arch = json::parse(R"({"id": "x", "type": "strategy", "retrieval": {"scope": {"vendor": "nvidia"}}})");
  CHECK_THROWS_WITH(record::record_dir(no_arch), Catch::Contains("arch"));
  CHECK_THROWS_AS(record::inside("/store/records", "../x.json"), record::LayoutError);
  CHECK_THROWS_AS(record::inside("/store/records", "/etc/passwd"), record::LayoutError);
  CHECK(record::inside("/store/records", "a/b.json") == "/store/records/a/b.json");
}

TEST_CASE("leak shapes find what the scrubber must remove", "[record]") {
  auto leaks = record::find_leaks("ran /home/alice/x.py, mail bob.smith@example.com, see notes/plan.md", false);
  REQUIRE(leaks.size() == 3);
  CHECK(leaks[0].label == "absolute path");
  CHECK(leaks[0].token == "/home/alice/x.py");
  CHECK(leaks[1].token == "bob.smith@example.com");
  CHECK(leaks[2].token == "notes/plan.md");
  CHECK(record::find_leaks("the v12 kernel", false).empty());
  auto strict = record::find_leaks("the v12 kernel on shape 3f2a91bc with vec4 v4 float lanes", true);
  REQUIRE(strict.size() == 2);
  CHECK(strict[0].token == "v12");
  CHECK(strict[1].token == "3f2a91bc");
}

TEST_CASE("a leak shape's needles: a text without them cannot hold the shape", "[record]") {
  // Each shape matched on a text holding its needle, and the same text with
  // the needle's characters changed neither matches nor passes the needle test.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"absolute path", "see file:///Users/alice/k.py and /root/x"},
      {"email", "ask bob.smith@example.com"},
      {"markdown page", "see notes/plan.md"},
  };
  for (const auto &shape : record::store_leak_shapes()) {
    INFO(shape.label);
    REQUIRE_FALSE(shape.needles.empty());
    for (const auto &[label, text] : cases) {
      if (label != shape.label) continue;
      CHECK(shape.may_occur_in(text));
      CHECK(shape.regex->contains(text));
      std::string without = text;
      for (auto n : shape.needles)
        for (auto at = without.find(n); at != std::string::npos; at = without.find(n)) without[at + n.size() / 2] = '#';
      CHECK_FALSE(shape.may_occur_in(without));
      CHECK_FALSE(shape.regex->contains(without));
    }
  }
  CHECK(record::find_leaks("nothing private in plain prose", false).empty());
}

TEST_CASE("fact pre-check states the intent of the reference's regexes", "[record]") {
  CHECK(record::fact_precheck("short") == "too short to carry a claim");
  CHECK(record::fact_precheck("flat within noise on every shape we tried") == "reports a measurement, names no cause");
  CHECK(record::fact_precheck("it was slower and we stopped there") == "no checkable condition and no cause");
  CHECK(record::fact_precheck("slower on B200 for large rows") == "ok");
  // Stems, plurals and two-character operators count (reference weakness).
  CHECK(record::fact_precheck("the extra tile serializes the warps") == "ok");
  CHECK(record::fact_precheck("this layout spills registers badly") == "ok");
  CHECK(record::fact_precheck("slower whenever K>=4096 in our runs") == "ok");
  CHECK(record::fact_precheck("slower when the tile is wide") == "ok");
}

TEST_CASE("established-fact record rule", "[record]") {
  auto rec = json::parse(R"({"type": "anti-strategy", "payload": {"verdict": "not-worth-it-here",
    "established_fact": {"condition": {"sm_arch": "sm_100"},
      "mechanism": "the staging buffer exceeds shared memory so occupancy halves"}}})");
  CHECK(record::established_fact_problems(rec).empty());
  auto hollow = json::parse(R"({"type": "anti-strategy", "payload": {"verdict": "unknown",
    "established_fact": {"condition": {"dtype": " "},
      "mechanism": "12th consecutive dead-end, nothing new found in this round"}}})");
  auto problems = record::established_fact_problems(hollow);
  REQUIRE(problems.size() == 3);
  CHECK_THAT(problems[2], Catch::Contains("consecutive dead-end"));
  auto missing = json::parse(R"({"type": "anti-strategy", "payload": {"verdict": "api-limitation"}})");
  CHECK(record::established_fact_problems(missing).size() == 1);
  CHECK(record::established_fact_problems(json::parse(R"({"type": "strategy"})")).empty());
}

TEST_CASE("one version-id rule: PTX mnemonics and vector types are not version ids (issue 10)", "[record][issue10]") {
  auto ids = [](std::string_view t) {
    std::vector<std::string> out;
    for (const auto &l : record::find_leaks(t, true))
      if (l.label == "version id") out.push_back(l.token);
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(ids("ld.global.nc.v4 and ld.global.v4.b32 and .v2.f32 and st.global.v8.bf16").empty());
  CHECK(ids("ld-global-nc-v4-loads, st-global-v2-f32, ld.shared::cta.v4").empty());
  CHECK(ids("vec4 loads with v4 float lanes; Triton v3.1") == V{});
  CHECK(ids("kernel-v4 beat v3, see v12.json and v4 loads") == V{"v4", "v3", "v12", "v4"});
  std::string t = "use ld.global.nc.v4 since v4";
  auto m = record::version_ids(t);
  REQUIRE(m.size() == 1);
  CHECK(m[0].begin == t.rfind("v4"));
  CHECK(record::replace_version_ids(t, [](std::string_view) { return std::string("X"); }) ==
        "use ld.global.nc.v4 since X");
}

// Issue 27: a version id inside a name ('_' bounds it as a space does) is a
// version id: the capture directory `v289_ncu_full` quoted in a profiler
// conclusion passed the scrubber and the pre-flight found no leak.
TEST_CASE("a version id inside a name is a version id (issue 27)", "[record][security]") {
  auto leaks = record::find_leaks("# Profile report v289_ncu_full (kept beside profiles/v25_ncu)", true);
  std::vector<std::string> tokens;
  for (const auto &l : leaks)
    if (l.label == "version id") tokens.push_back(l.token);
  CHECK(tokens == std::vector<std::string>{"v289", "v25"});
  CHECK(record::version_ids("kernel_v3.py and run_v12_rerun").size() == 2);
  // Still not: part of a word or a number, a dotted release, a vector width.
  CHECK(record::version_ids("dev12 uv3 v12x Triton v3.1 float v4 ld.global.v4").empty());
  // An MMA API's generation is part of its name (round 12: Gluon's `mma_v2`
  // scrubbed to "mma_an earlier step"); a version after another name still is one.
  CHECK(record::version_ids("acc = gl.nvidia.ampere.mma_v2(a, b, acc); warpgroup_mma_v3 MMA_V2").empty());
  CHECK(record::version_ids("gemm_v2 mma_v2x mmav2 kernel_v2.py").size() == 2);
  // A load helper's width and a model's generation (stop 44: "ld_nc_an
  // earlier step", "DeepSeek-An earlier step"); a version after a plain
  // name or a lower-case word still is one.
  CHECK(record::version_ids("ld_nc_v4(p) st_cs_v4(q, x) ld_evict_first_v4(p) DeepSeek-V3 DeepSeek-V2-Lite").empty());
  CHECK(record::version_ids("run_last_v4 kernel-V3 draft-v3 -V3").size() == 4);
}
