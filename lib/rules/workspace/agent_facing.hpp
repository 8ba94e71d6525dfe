// The blocks of a packet's `agent_facing` (spec packets.md) that the
// drafters read most, as typed values: what the run said of the step
// (`what_the_run_said`), the operator it ran on (`operator`), a failed
// attempt's account and the kernel the packet carries. otm-packet
// writes them (write_agent_facing); the drafters read them once per draft
// (issue 28: each read them field by field with string_or, so a renamed
// field read as "" in whichever drafter asked for it).
//
//   auto said = workspace::WhatTheRunSaid::from_json(packet.get("agent_facing"));
//   if (!said.gate_verdict.empty()) ... said.change, said.causal_sentences
//
// The reading is lenient, as the drafters' reads always were: a field that
// is absent, null or of another type reads as its default ("", 0, empty),
// and a packet's own texts are kept as written (not stripped), so each
// drafter keeps its own rule for a blank text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "json/value.hpp"

namespace otm::workspace {

struct WhatTheRunSaid {
  std::string change, commit_subject, commit_body, category_hint, gate_verdict, expected_impact;
  // How many of the run's steps state this expected impact (a template's).
  std::int64_t expected_impact_stated_by_steps = 0;
  // The string items, in order (an item of another type is left out).
  std::vector<std::string> causal_sentences;
  // One per item, in order; an item that is no object reads as two "".
  struct Direction {
    std::string direction, rationale;
  };
  std::vector<Direction> directions_taken_up;
  // The run's stock sentences among the step's texts (`stock_texts`): each
  // stated on `steps` steps of `kinds` kinds of change.
  struct StockText {
    std::string text;
    std::int64_t steps = 0, kinds = 0;
  };
  std::vector<StockText> stock_texts;

  // The block of `agent_facing` (a packet's `agent_facing`, not the packet).
  static WhatTheRunSaid from_json(const json::Value &agent_facing);
};

struct PacketOperator {
  std::string what_it_computes, dsl, gpu, harness;
  // Axis name -> value, kept as written (a make_fact_context argument).
  json::Value fixed_axes;

  // The block of `agent_facing` (a packet's `agent_facing`, not the packet).
  static PacketOperator from_json(const json::Value &agent_facing);
};

// What an anti-strategy's packet says of the failed attempt: the lever it
// turned (`the_failed_lever`), the pitfalls the run recorded there (each
// item's `pitfall`, "" for an item without one) and the correctness status
// it measured (`measurements.correctness.status`).
struct AttemptAccount {
  std::string the_failed_lever, correctness_status;
  std::vector<std::string> pitfalls;

  static AttemptAccount from_json(const json::Value &agent_facing);
};

// The kernel a packet carries: its file name (`kernel_file`; for a diff's
// kernel, the `code_after_file` after it, whose extension says its
// language; "kernel.py" when the packet names neither) and the change of each kept
// step of its lineage (`kept_changes_of_its_lineage`, "" for an entry
// without one).
struct PacketKernel {
  std::string kernel_file = "kernel.py";
  std::vector<std::string> lineage_changes;

  static PacketKernel from_json(const json::Value &agent_facing);
};

// How a strategy's earlier try ended (`how_its_earlier_tries_ended`):
// otm-packet writes one of these per try, otm-draft reads them.
inline constexpr const char *kTryDidNotBuild = "did not build";
inline constexpr const char *kTryFailedItsCheck = "failed its correctness check";
inline constexpr const char *kTryMeasured = "measured";

} // namespace otm::workspace
