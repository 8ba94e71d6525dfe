#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "gates/gates.hpp"
#include "gates_fixture.hpp"
#include "io/file.hpp"
#include "process.hpp"
#include "schema/canonical.hpp"
#include "scratch.hpp"
#include "text/regex.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;
using otm::testing::GateFixture;

namespace {

using otm::testsupport::sh;

std::string bin(const std::string &tool) { return otm::testsupport::tool_path(tool); }

std::string fixture_args(const GateFixture &f) {
  return " --workspace '" + f.workspace().string() + "' --trace '" + f.trace().string() + "' --live '" +
         f.live().string() + "' '" + f.store().string() + "'";
}

// Tags open and close in order, attributes quoted: enough to catch broken XML.
bool well_formed(const std::string &xml) {
  static const text::Regex tag(R"(<(/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(/?)>|<\?xml[^>]*\?>)");
  std::vector<std::string> stack;
  std::size_t pos = 0;
  for (const auto &m : tag.find_all(xml)) {
    auto between = xml.substr(pos, m.begin - pos);
    if (between.find('<') != std::string::npos) return false;
    pos = m.end;
    if (!m.has(2)) continue;
    std::string name(m[2]);
    if (m[1] == "/") {
      if (stack.empty() || stack.back() != name) return false;
      stack.pop_back();
    } else if (m[4] != "/") {
      stack.push_back(name);
    }
  }
  return stack.empty() && xml.substr(pos).find('<') == std::string::npos;
}

} // namespace

TEST_CASE("otm-validate passes the fixture and proves all seventeen gates", "[cli][gates]") {
  GateFixture f;
  f.write_and_load();
  auto out = f.root / "out";
  CHECK(sh(bin("otm-validate") + fixture_args(f) + " > '" + out.string() + "' 2>/dev/null") == 0);
  CHECK(io::read_file(out).find("ALL GATES PASS") != std::string::npos);
  CHECK(sh(bin("otm-validate") + " --injection-tests" + fixture_args(f) + " > '" + out.string() + "' 2>/dev/null") ==
        0);
  auto text = io::read_file(out);
  std::size_t fired = 0;
  for (auto p = text.find(" FIRED "); p != std::string::npos; p = text.find(" FIRED ", p + 1)) ++fired;
  CHECK(fired == 18); // one case per gate, two for substance
  CHECK(text.find("all 18 injection cases fired, proving all 17 gates") != std::string::npos);
}

TEST_CASE("otm-validate --format sarif carries SARIF 2.1.0's required fields", "[cli][gates]") {
  GateFixture f;
  f.record.set("level", "generic"); // profile fails: one result
  f.write_and_load();
  auto out = f.root / "out.sarif";
  CHECK(sh(bin("otm-validate") + " --format sarif" + fixture_args(f) + " > '" + out.string() + "' 2>/dev/null") == 1);
  auto doc = json::parse_file(out);
  CHECK(doc.string_or("version") == "2.1.0");
  REQUIRE(doc.get("runs").is_array());
  REQUIRE(doc.get("runs").size() == 1);
  const auto &run = doc.get("runs")[0];
  CHECK(run.get("tool").get("driver").string_or("name") == "otm-validate");
  CHECK(run.get("tool").get("driver").get("rules").size() == 17);
  REQUIRE(run.get("results").size() >= 1);
  for (const auto &r : *run.get("results").as_array()) {
    CHECK(r.get("message").get("text").is_string());
    CHECK(r.string_or("ruleId") == "profile");
    CHECK(r.get("locations")[0].get("physicalLocation").get("artifactLocation").get("uri").is_string());
  }
}

TEST_CASE("otm-validate --format junit is well-formed with one testcase per gate", "[cli][gates]") {
  GateFixture f;
  f.record.set("level", "generic");
  f.write_and_load();
  auto out = f.root / "out.xml";
  CHECK(sh(bin("otm-validate") + " --format junit" + fixture_args(f) + " > '" + out.string() + "' 2>/dev/null") == 1);
  auto xml = io::read_file(out);
  CHECK(well_formed(xml));
  CHECK_FALSE(well_formed("<a><b></a></b>"));
  std::size_t cases = 0, failures = 0;
  for (auto p = xml.find("<testcase "); p != std::string::npos; p = xml.find("<testcase ", p + 1)) ++cases;
  for (auto p = xml.find("<failure "); p != std::string::npos; p = xml.find("<failure ", p + 1)) ++failures;
  CHECK(cases == 17);
  CHECK(failures == 1);
}

TEST_CASE("a gate executable: JSONL findings, verdict, exit codes", "[cli][gates]") {
  GateFixture f;
  f.record.set("level", "generic");
  f.write_and_load();
  auto out = f.root / "findings.jsonl";
  CHECK(sh(bin("otm-gate-profile") + " '" + f.store().string() + "' > '" + out.string() + "' 2>/dev/null") == 1);
  auto rows = json::parse_lines_file(out);
  REQUIRE(!rows.empty());
  CHECK(rows[0].string_or("gate") == "profile");
  CHECK(rows[0].string_or("record") == f.record.string_or("id"));
  CHECK(sh(bin("otm-gate-schema") + " '" + f.store().string() + "' > /dev/null 2>&1") == 0);
  // Records on stdin as JSONL.
  CHECK(sh("cat '" + (f.store() / "records").string() + "'/strategy/*/*/*/*/*.json | tr -d '\\n' | " +
           bin("otm-gate-schema") + " - > /dev/null 2>&1") == 0);
  // No packets: no-fabrication cannot run, so it fails.
  CHECK(sh(bin("otm-gate-no-fabrication") + " '" + f.store().string() + "' > /dev/null 2>&1") == 1);
  CHECK(sh(bin("otm-gate-ids") + " /nonexistent/record.json > /dev/null 2>&1") == 2);
}

TEST_CASE("otm-schema: the committed profile is current and equals the store's profile", "[cli][schema]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  std::string src = otm::testing::source_dir();
  std::string files = " --base '" + src + "/schema/clean-1.3.schema.json' --patches '" + src +
                      "/schema/opt-trace-1.0.patches.json' --profile '" + src + "/schema/opt-trace-1.0.schema.json'";
  CHECK(sh(bin("otm-schema") + " --check" + files + " > /dev/null 2>&1") == 0);
  auto ours = json::parse_file(src + "/schema/opt-trace-1.0.schema.json");
  auto theirs = json::parse_file(wiki / "opt-trace-profile/opt-trace-1.0.schema.json");
  CHECK(schema::first_difference(ours, theirs, {"description", "title", "$id", "x-profile-of"}) == "");
}

TEST_CASE("otm-schema --check: semantic staleness and widening patches", "[cli][schema]") {
  GateFixture f; // only for a fresh directory
  std::string src = otm::testing::source_dir();
  auto base = json::parse_file(src + "/schema/clean-1.3.schema.json");
  // Same meaning, different bytes (compact, one line): not stale.
  io::write_file_atomic(f.root / "base.json", json::to_line(base));
  std::string common = " --patches '" + src + "/schema/opt-trace-1.0.patches.json' --profile '" + src +
                       "/schema/opt-trace-1.0.schema.json'";
  CHECK(sh(bin("otm-schema") + " --check --base '" + (f.root / "base.json").string() + "'" + common +
           " >/dev/null 2>&1") == 0);
  // A semantic change: stale.
  base.find("properties")
      ->find("status")
      ->set("enum", json::Value::strings({"active", "superseded", "deprecated", "x"}));
  io::write_file_atomic(f.root / "base2.json", json::to_line(base));
  CHECK(sh(bin("otm-schema") + " --check --base '" + (f.root / "base2.json").string() + "'" + common +
           " >/dev/null 2>&1") == 1);
  // A patch that widens an enum is refused.
  auto patches = json::parse_file(src + "/schema/opt-trace-1.0.patches.json");
  (*patches.find("patches")->as_array())[0].set("value",
                                                json::Value::strings({"operator", "cross-operator", "galaxy"}));
  io::write_file_atomic(f.root / "wide.json", json::to_pretty(patches));
  CHECK(sh(bin("otm-schema") + " --patches '" + (f.root / "wide.json").string() + "' --profile - > /dev/null 2>&1") ==
        1);
}

TEST_CASE("store gates on the real store of 847 records: verdicts pinned", "[shared][gates]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  auto store = wiki / "kernel_wiki";
  // Its own directory: runs of the suite side by side must not share it.
  otm::testsupport::TempDir scratch("real-store-findings");
  auto out = scratch.path() / "findings.jsonl";
  // Every store gate runs on all 847 records and passes, with the unified
  // NON_MECHANISM list (no verdict flips against the store's own list).
  for (const char *g : {"schema", "ids", "anonymization", "raw-isolation", "relations", "index", "self-contained",
                        "no-cross-reference", "established-fact"}) {
    INFO(g);
    CHECK(sh(bin(std::string("otm-gate-") + g) + " '" + store.string() + "' > '" + out.string() + "' 2>/dev/null") ==
          0);
    CHECK(io::read_file(out).empty());
  }
  // The profile gate fails on it by design: the store's records are cards
  // and documents mined from pages, not from one trace (no provenance).
  CHECK(sh(bin("otm-gate-profile") + " '" + store.string() + "' > '" + out.string() + "' 2>/dev/null") == 1);
  // Layout is the admission gate's derivation; the store files 651 records
  // by its own page-derived convention (any/, kernels/, ... instead of the
  // operator family), which this pipeline never writes.
  CHECK(sh(bin("otm-gate-layout") + " '" + store.string() + "' > '" + out.string() + "' 2>/dev/null") == 1);
  CHECK(json::parse_lines_file(out).size() == 651);
  fs::remove(out);
}

TEST_CASE("otm-validate --list-gates prints the registry's sets", "[cli][gates]") {
  auto dir = std::filesystem::temp_directory_path() / ("otm-list-gates-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto out = dir / "store.txt";
  REQUIRE(sh(bin("otm-validate") + " --list-gates=store > '" + out.string() + "'") == 0);
  std::string want;
  for (const auto &name : otm::gates::gate_names("store")) want += name + "\n";
  CHECK(otm::io::read_file(out) == want);
  CHECK(sh(bin("otm-validate") + " --list-gates=nine > /dev/null 2>&1") == 2);
  std::filesystem::remove_all(dir);
}
