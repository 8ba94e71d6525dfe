// The typed reading of a packet's what_the_run_said and operator blocks
// (workspace/agent_facing.hpp), from the example's golden packets: each
// field as the drafters read it with string_or, and a field absent or of
// another type reads as its default, as string_or did.
#include <catch2/catch.hpp>

#include <filesystem>

#include "golden.hpp"
#include "workspace/agent_facing.hpp"
#include "json/parse.hpp"

using namespace otm;
using workspace::PacketOperator;
using workspace::WhatTheRunSaid;

TEST_CASE("a golden packet's what_the_run_said and operator read typed", "[agent-facing]") {
  int packets = 0;
  for (const auto &entry : std::filesystem::directory_iterator(testsupport::golden_path("example/packets"))) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().filename().string());
    const auto af = json::parse_file(entry.path()).get("agent_facing");
    const auto &raw = af.get("what_the_run_said");
    const auto said = WhatTheRunSaid::from_json(af);
    const std::pair<const char *, const std::string *> fields[] = {{"change", &said.change},
                                                                   {"commit_subject", &said.commit_subject},
                                                                   {"commit_body", &said.commit_body},
                                                                   {"category_hint", &said.category_hint},
                                                                   {"gate_verdict", &said.gate_verdict},
                                                                   {"expected_impact", &said.expected_impact}};
    for (const auto &[key, field] : fields) CHECK(*field == raw.string_or(key));
    CHECK(said.expected_impact_stated_by_steps == raw.get("expected_impact_stated_by_steps").as_int().value_or(0));
    CHECK(said.causal_sentences.size() == raw.get("causal_sentences").size());
    REQUIRE(said.directions_taken_up.size() == raw.get("directions_taken_up").size());
    for (std::size_t i = 0; i < said.directions_taken_up.size(); ++i) {
      CHECK(said.directions_taken_up[i].direction == raw.get("directions_taken_up")[i].string_or("direction"));
      CHECK(said.directions_taken_up[i].rationale == raw.get("directions_taken_up")[i].string_or("rationale"));
    }
    const auto op = PacketOperator::from_json(af);
    CHECK(op.dsl == af.get("operator").string_or("dsl"));
    CHECK(op.gpu == af.get("operator").string_or("gpu"));
    CHECK(op.fixed_axes == af.get("operator").get("fixed_axes"));
    ++packets;
  }
  CHECK(packets > 3);
  const auto v25 = WhatTheRunSaid::from_json(
      json::parse_file(testsupport::golden_path("example/packets/strategy-v25.json")).get("agent_facing"));
  CHECK(v25.category_hint == "pipelining");
  CHECK(v25.commit_body.empty()); // null in the packet
  REQUIRE(v25.directions_taken_up.size() == 1);
  CHECK(v25.directions_taken_up[0].direction == "double-buffer row tiles behind an mbarrier");
}

TEST_CASE("a what_the_run_said field absent or of another type reads as its default", "[agent-facing]") {
  const auto af = json::parse(R"({"what_the_run_said": {"change": 3, "expected_impact_stated_by_steps": "7",
    "causal_sentences": ["A cause.", 4, null], "directions_taken_up": [{"direction": "d", "rationale": 1}, "x"]},
    "operator": {"dsl": null, "fixed_axes": {"dtype": "fp16"}}})");
  const auto said = WhatTheRunSaid::from_json(af);
  CHECK(said.change.empty());
  CHECK(said.commit_subject.empty());
  CHECK(said.expected_impact_stated_by_steps == 0);
  CHECK(said.causal_sentences == std::vector<std::string>{"A cause."});
  REQUIRE(said.directions_taken_up.size() == 2);
  CHECK(said.directions_taken_up[0].direction == "d");
  CHECK(said.directions_taken_up[0].rationale.empty());
  CHECK(said.directions_taken_up[1].direction.empty());
  const auto op = PacketOperator::from_json(af);
  CHECK(op.dsl.empty());
  CHECK(op.fixed_axes.string_or("dtype") == "fp16");
  // No agent_facing at all: every field its default.
  CHECK(WhatTheRunSaid::from_json(json::Value()).directions_taken_up.empty());
  CHECK(PacketOperator::from_json(json::Value()).fixed_axes.is_null());
}
