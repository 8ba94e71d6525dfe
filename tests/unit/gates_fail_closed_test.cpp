// Every gate fails closed (issue 13): a record it cannot parse is a finding
// of that gate, never a pass, whatever the gate checks.
#include <catch2/catch.hpp>

#include "distill/packet.hpp"
#include "gates/context.hpp"
#include "gates/gates.hpp"
#include "schema/builtin_schemas.hpp"
#include "scratch.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("no gate passes input it cannot parse", "[gates][security]") {
  for (std::string input : {std::string("{\"id\": \"a\", \"type\""), std::string("\x01\xff garbage\n[1, 2]\n\"s\""),
                            std::string("{\n  \"id\": \"pretty-printed\"\n}")}) {
    gates::Context ctx;
    ctx.records = gates::records_from_jsonl(input, "<stdin>");
    ctx.store_schema = std::make_shared<const schema::Schema>(json::parse(schema::builtin_store_schema_text()), "s");
    ctx.profile = std::make_shared<const schema::Schema>(json::parse(schema::builtin_profile_text()), "p");
    REQUIRE_FALSE(ctx.records.empty());
    for (const auto &g : gates::all_gates()) {
      INFO(g.name << " on " << input);
      auto r = gates::run_gate(g, ctx);
      CHECK_FALSE(r.passed());
      bool names_line = std::any_of(r.findings.begin(), r.findings.end(),
                                    [](const gates::Finding &f) { return f.file.starts_with("<stdin>:"); });
      CHECK((names_line || r.note == "cannot run"));
    }
  }
}

TEST_CASE("the gates check a record against the code its distiller was given", "[gates][security]") {
  otm::testsupport::TempDir dir("packet-code");
  auto packet = dir.path() / "strategy-v3.json";
  // The packet names its diff; a stray kernel file beside it is not its code.
  otm::testsupport::write_text(packet,
                               R"({"seg_id": "strategy-v3", "agent_facing": {"diff_file": "strategy-v3.diff"}})");
  otm::testsupport::write_text(dir.path() / "strategy-v3.diff", "+x = 1\n");
  otm::testsupport::write_text(dir.path() / "strategy-v3.py", "y = 2\n");
  auto gate_view = otm::gates::load_packet(packet);
  auto distiller_view = otm::distill::load_packet(packet);
  CHECK(gate_view.code_text == "+x = 1\n");
  CHECK(gate_view.code_text == distiller_view.code);
  // A name outside the packet's directory is no evidence for either.
  otm::testsupport::write_text(packet, R"({"seg_id": "strategy-v3", "agent_facing": {"diff_file": "../x.diff"}})");
  CHECK_THROWS_AS(otm::gates::load_packet(packet), otm::json::ParseError);
  CHECK_THROWS_AS(otm::distill::load_packet(packet), otm::json::ParseError);
}
