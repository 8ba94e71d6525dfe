#include <catch2/catch.hpp>

#include <functional>
#include <regex>
#include <set>

#include "error/error.hpp"
#include "gates/admission.hpp"
#include "gates/denylist.hpp"
#include "gates/gates.hpp"
#include "gates/injection.hpp"
#include "gates/report.hpp"
#include "gates_fixture.hpp"
#include "schema/builtin_schemas.hpp"
#include "json/parse.hpp"

using namespace otm;
using otm::testing::GateFixture;

namespace {

// Names of the gates that fail on ctx.
std::set<std::string> failing(const gates::Context &ctx) {
  std::set<std::string> out;
  for (const auto &g : gates::all_gates()) {
    auto r = gates::run_gate(g, ctx);
    INFO(g.name << ": " << (r.findings.empty() ? "" : r.findings.front().message));
    CHECK_FALSE(r.crashed);
    if (!r.passed()) out.insert(g.name);
  }
  return out;
}

json::Value &at(json::Value &v, std::initializer_list<const char *> path) {
  json::Value *n = &v;
  for (const char *k : path) {
    if (!n->find(k)) n->set(k, json::Value::object());
    n = n->find(k);
  }
  return *n;
}

} // namespace

TEST_CASE("the fixture record passes all seventeen gates", "[gates]") {
  GateFixture f;
  CHECK(failing(f.write_and_load()).empty());
  GateFixture a;
  a.record = GateFixture::anti_record();
  a.record.find("evidence")->find("raw")->set("git_commit", a.sha_v1);
  a.packet.find("target")->set("id", a.record.get("id"));
  CHECK(failing(a.write_and_load()).empty());
}

TEST_CASE("each gate fires alone on the record built to break it", "[gates]") {
  struct Case {
    const char *gate;
    std::function<void(GateFixture &)> mutate;
    std::set<std::string> also = {};
  };
  std::vector<Case> cases = {
      // A schema violation is a profile violation by construction (the profile only narrows).
      {"schema", [](GateFixture &f) { f.record.set("x_extra", 1); }, {"profile"}},
      {"ids", [](GateFixture &f) { f.record_relpath = "strategy/nvidia/blackwell/triton/fused-softmax/renamed.json"; }},
      {"anonymization",
       [](GateFixture &f) { at(f.record, {"payload"}).set("mechanism", "Fewer round trips, see /home/alice/notes"); }},
      {"raw-isolation",
       [](GateFixture &f) {
         at(f.record, {"payload", "problem"}).set("statement", "Each row of trace-x was split");
       }},
      {"relations",
       [](GateFixture &f) {
         at(f.record, {"retrieval", "links"}).set("see_also", json::Value::strings({"nvidia.b200.triton.x.gone-s09"}));
       }},
      {"index",
       [](GateFixture &f) {
         f.index_entry = json::Value::object();
         f.index_entry.set("id", f.record.get("id"));
         f.index_entry.set("retrieval", f.record.get("retrieval"));
         f.index_entry.set("worth_score", 0.7);
         f.index_entry.set("tier", "promising");
         f.index_entry.set("gain_pct", 8.0);
       }},
      {"self-contained",
       [](GateFixture &f) {
         at(f.record, {"payload", "problem"}).set("target", " ");
       }},
      {"no-cross-reference",
       [](GateFixture &f) {
         at(f.record, {"payload"}).set("mechanism", "Same as nvidia.h100.cuda.gemm.other-s01 because rows stay put");
       }},
      {"established-fact",
       [](GateFixture &f) {
         f.record = GateFixture::anti_record();
         f.record.find("evidence")->find("raw")->set("git_commit", f.sha_v1);
         f.packet.find("target")->set("id", f.record.get("id"));
         at(f.record, {"payload", "established_fact"})
             .set("mechanism", "Every variant we tried was flat within noise on this operator");
       }},
      {"profile", [](GateFixture &f) { f.record.set("level", "generic"); }},
      {"layout",
       [](GateFixture &f) {
         f.record_relpath = "strategy/nvidia/blackwell/triton/softmax/" + f.record.string_or("id") + ".json";
       }},
      {"verbatim",
       [](GateFixture &f) {
         at(f.record, {"payload", "implementation"}).set("snippet", "-    y = x + 1\n+    y = x * 3");
       }},
      {"no-fabrication",
       [](GateFixture &f) { at(f.record, {"payload"}).set("mechanism", "Saves 37.5 percent of the round trips"); }},
      // A real commit of the trace, but not the one the packet cited.
      {"provenance",
       [](GateFixture &f) {
         at(f.record, {"evidence", "raw"}).set("git_commit", f.sha_v0);
       }},
      {"ncu-attribution",
       [](GateFixture &f) {
         at(f.record, {"evidence", "summary", "bottleneck_evidence"}).set("basis", "profiler");
         at(f.record, {"evidence", "raw", "evidence_extra"}).set("ncu_dirs", json::Value::strings({"cap2"}));
       }},
      {"store-overlap", [](GateFixture &f) { f.live_ids.push_back(f.record.string_or("id")); }},
      // A line of the packet's diff, but context: it changes nothing.
      {"substance",
       [](GateFixture &f) {
         at(f.record, {"payload", "implementation"}).set("snippet", " def f(x):");
       }},
  };
  REQUIRE(cases.size() == gates::all_gates().size());
  for (const auto &c : cases) {
    SECTION(c.gate) {
      GateFixture f;
      c.mutate(f);
      std::set<std::string> expected = c.also;
      expected.insert(c.gate);
      CHECK(failing(f.write_and_load()) == expected);
    }
  }
}

TEST_CASE("strict leak shapes, denylist and provenance forms", "[gates]") {
  GateFixture f;
  SECTION("a version id in a trace record's prose") {
    at(f.record, {"payload"}).set("change", "Process one row per program as v7 did");
    CHECK(failing(f.write_and_load()) == std::set<std::string>{"anonymization"});
  }
  SECTION("a PTX vector width in prose and in a technique tag is no version id (issue 10)") {
    at(f.record, {"payload"}).set("change", "Load the row with ld.global.nc.v4 and store with st.global.v2.f32");
    at(f.record, {"retrieval"}).set("technique_tags", json::Value::strings({"ld-global-nc-v4-loads"}));
    CHECK(gates::gate_anonymization(f.write_and_load()).passed());
    at(f.record, {"retrieval"}).set("technique_tags", json::Value::strings({"kernel-v4-loads"}));
    CHECK_FALSE(gates::gate_anonymization(f.write_and_load()).passed());
  }
  SECTION("a denylisted term") {
    auto ctx = f.write_and_load();
    CHECK(gates::gate_anonymization(ctx).passed());
    ctx.denylist = gates::denylist_regex({"softmax rows"});
    auto r = gates::gate_anonymization(ctx);
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].token == "softmax rows");
  }
  SECTION("an abbreviated or symbolic commit is refused") {
    for (std::string commit : {f.sha_v1.substr(0, 12), std::string("HEAD"), std::string("--all")}) {
      at(f.record, {"evidence", "raw"}).set("git_commit", commit);
      auto r = gates::gate_provenance(f.write_and_load());
      CHECK_FALSE(r.passed());
    }
  }
  SECTION("a short snippet line and dispatch_snippet are checked") {
    at(f.record, {"payload", "implementation"}).set("dispatch_snippet", "f(x)");
    CHECK(failing(f.write_and_load()) == std::set<std::string>{"verbatim"});
  }
  SECTION("text spanning two code lines is not a line") {
    at(f.record, {"payload", "implementation"}).set("snippet", "y = x * 2 return y");
    CHECK(failing(f.write_and_load()) == std::set<std::string>{"verbatim", "substance"});
  }
}

TEST_CASE("gates that lack their input fail instead of passing", "[gates]") {
  GateFixture f;
  auto ctx = f.write_and_load();
  ctx.workspace.reset();
  ctx.packets.clear();
  ctx.trace_repo.reset();
  ctx.have_live = false;
  ctx.index.reset();
  for (const char *g : {"verbatim", "no-fabrication", "provenance", "store-overlap", "index"}) {
    auto r = gates::run_gate(*gates::find_gate(g), ctx);
    INFO(g);
    CHECK_FALSE(r.passed());
  }
}

TEST_CASE("injection tests fire on all seventeen gates", "[gates][injection]") {
  GateFixture f;
  auto cases = gates::run_injection_tests(f.write_and_load());
  REQUIRE(cases.size() == 18); // one per gate, two for substance (a comment, a dead constant)
  for (const auto &c : cases) {
    INFO(c.name << ": " << c.detail);
    CHECK(c.status == gates::InjectionStatus::Fired);
  }
  CHECK(gates::all_fired(cases));
}

TEST_CASE("a crashing gate is not counted as fired", "[gates][injection]") {
  // No profile at all: the profile gate cannot run, so its case is not proven.
  GateFixture f;
  auto ctx = f.write_and_load();
  ctx.profile.reset();
  auto cases = gates::run_injection_tests(ctx);
  for (const auto &c : cases)
    if (c.gate == "profile") CHECK(c.status != gates::InjectionStatus::Fired);
  CHECK_FALSE(gates::all_fired(cases));
}

TEST_CASE("validate_record_for_admission runs fact, record gates and schema", "[gates][admission]") {
  GateFixture f;
  schema::Schema schema(json::parse(schema::builtin_store_schema_text()), "b");
  CHECK(gates::validate_record_for_admission(f.record, schema).empty());
  auto bad = GateFixture::anti_record();
  at(bad, {"payload", "established_fact"}).set("mechanism", "short");
  at(bad, {"payload"}).set("goal", "see /home/bob/x");
  bad.set("level", "planet");
  auto errors = gates::validate_record_for_admission(bad, schema);
  REQUIRE(errors.size() >= 3);
  CHECK(errors[0].rfind("established-fact: ", 0) == 0);
  bool anon = false, sch = false;
  for (const auto &e : errors) {
    anon = anon || e.rfind("anonymization: ", 0) == 0;
    sch = sch || e.rfind("schema: level", 0) == 0;
  }
  CHECK(anon);
  CHECK(sch);
}

TEST_CASE("the drafter's in-process check: one record and its packet", "[gates]") {
  GateFixture f;
  f.write_and_load();
  auto packet = gates::load_packet(f.workspace() / "packets" / "s01.json");
  auto ctx = gates::context_for_record(f.record, {}, packet);
  ctx.profile = std::make_shared<const schema::Schema>(json::parse(schema::builtin_profile_text()), "p");
  CHECK(gates::run_gates(ctx, {"profile", "verbatim", "no-fabrication"}).empty());
  at(ctx.records[0].record, {"payload"}).set("mechanism", "Saves 41.25 percent");
  auto findings = gates::run_gates(ctx, {"profile", "verbatim", "no-fabrication"});
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].gate == "no-fabrication");
  CHECK(findings[0].token == "41.25");
}

TEST_CASE("the registry is the one list of gates: sets by name, admission's subset, unknown names", "[gates]") {
  auto store = gates::gate_names("store"), trace = gates::gate_names("trace"), all = gates::gate_names("all");
  CHECK(store.size() == 9);
  CHECK(store.size() + trace.size() == all.size());
  CHECK(all.size() == gates::all_gates().size());
  CHECK(gates::gate_names("record") == gates::per_record_gate_names());
  // What the admission gate runs on an incoming record beside the schema and
  // the established-fact rule: the record-alone store gates that need no
  // index, no links and no packet.
  CHECK(gates::gate_names("admission") ==
        std::vector<std::string>{"anonymization", "raw-isolation", "self-contained", "no-cross-reference"});
  CHECK(&gates::gate_named("substance") == gates::find_gate("substance"));
  CHECK_THROWS_AS(gates::gate_named("no-such-gate"), otm::Error);
  CHECK_THROWS_AS(gates::gate_names("nine"), otm::Error);
}

TEST_CASE("the registry: one entry per Gate, in enum order, each field named once", "[gates]") {
  const auto &all = gates::all_gates();
  REQUIRE(all.size() == 17);
  std::set<std::string> names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    INFO(all[i].name);
    CHECK(static_cast<std::size_t>(all[i].gate) == i);
    CHECK(&gates::gate_info(all[i].gate) == &all[i]);
    CHECK(gates::gate_name(all[i].gate) == all[i].name);
    CHECK(gates::find_gate(all[i].name) == &all[i]);
    CHECK(std::regex_match(all[i].name, std::regex("[a-z][a-z-]*")));
    CHECK_FALSE(all[i].summary.empty());
    CHECK(all[i].run != nullptr);
    names.insert(all[i].name);
  }
  CHECK(names.size() == all.size());
  // The store gates come first, then the trace gates (the reports' order).
  CHECK(std::is_partitioned(all.begin(), all.end(),
                            [](const gates::GateInfo &g) { return g.kind == gates::GateKind::Store; }));
  CHECK(gates::gate_name(gates::Gate::Schema) == "schema");
  CHECK(gates::gate_name(gates::Gate::NoCrossReference) == "no-cross-reference");
  CHECK(gates::gate_name(gates::Gate::Substance) == "substance");
  CHECK(gates::gate_info(gates::Gate::Index).reads_index);
  CHECK(gates::gate_info(gates::Gate::Relations).whole_store);
  CHECK(gates::gate_info(gates::Gate::Profile).token_is_schema_path);
  CHECK(gates::gate_info(gates::Gate::StoreOverlap).field == "id");
  // Findings and injection cases take the registry's name.
  GateFixture f;
  auto ctx = f.write_and_load();
  for (const auto &c : gates::run_injection_tests(ctx)) {
    INFO(c.name);
    REQUIRE(gates::find_gate(c.gate));
    CHECK(c.name.rfind(c.gate + "/", 0) == 0);
  }
}

TEST_CASE("the verdict of a validation is a value, written and read back in one place", "[gates]") {
  using gates::Verdict;
  for (auto v : {Verdict::Pass, Verdict::Fail, Verdict::NothingToValidate}) {
    CHECK(gates::read_verdict(gates::verdict_text(v)) == v);
    CHECK(gates::read_verdict(gates::verdict_text(v) + " (2 groups)") == v);
  }
  CHECK(gates::verdict_text(Verdict::Pass) == "ALL GATES PASS");
  CHECK_FALSE(gates::read_verdict("  ids                PASS"));
  gates::ValidationReport report;
  CHECK(gates::verdict_of(report) == Verdict::Pass);
  CHECK(gates::format_text(report, false).ends_with("\nALL GATES PASS\n"));
  gates::GateResult failed;
  failed.findings.push_back({"ids", "", "", "x", ""});
  report.runs.push_back({&gates::gate_info(gates::Gate::Ids), failed});
  CHECK(gates::verdict_of(report) == Verdict::Fail);
  CHECK(gates::format_text(report, false).ends_with("\nGATES FAILED (1 groups)\n"));
}
