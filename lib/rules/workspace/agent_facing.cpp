#include "workspace/agent_facing.hpp"

#include <utility>

namespace otm::workspace {

namespace {

using Said = WhatTheRunSaid;
using Op = PacketOperator;

// Each field by key, so a key is spelled once for reading.
constexpr std::pair<const char *, std::string Said::*> kSaidStrings[] = {
    {"change", &Said::change},
    {"commit_subject", &Said::commit_subject},
    {"commit_body", &Said::commit_body},
    {"category_hint", &Said::category_hint},
    {"gate_verdict", &Said::gate_verdict},
    {"expected_impact", &Said::expected_impact},
};
constexpr std::pair<const char *, std::string Op::*> kOperatorStrings[] = {
    {"what_it_computes", &Op::what_it_computes},
    {"dsl", &Op::dsl},
    {"gpu", &Op::gpu},
    {"harness", &Op::harness},
};

// A string, else "" (string_or's rule, which the drafters read it by).
std::string string_of(const json::Value &v) {
  const auto *s = v.as_string();
  return s ? *s : std::string();
}

} // namespace

WhatTheRunSaid WhatTheRunSaid::from_json(const json::Value &agent_facing) {
  const auto &block = agent_facing.get("what_the_run_said");
  WhatTheRunSaid said;
  for (const auto &[key, field] : kSaidStrings) said.*field = string_of(block.get(key));
  said.expected_impact_stated_by_steps = block.get("expected_impact_stated_by_steps").as_int().value_or(0);
  if (const auto *list = block.get("causal_sentences").as_array())
    for (const auto &s : *list)
      if (const auto *t = s.as_string()) said.causal_sentences.push_back(*t);
  if (const auto *list = block.get("directions_taken_up").as_array())
    for (const auto &d : *list)
      said.directions_taken_up.push_back({string_of(d.get("direction")), string_of(d.get("rationale"))});
  if (const auto *list = block.get("stock_texts").as_array())
    for (const auto &e : *list)
      said.stock_texts.push_back(
          {string_of(e.get("text")), e.get("steps").as_int().value_or(0), e.get("kinds").as_int().value_or(0)});
  return said;
}

PacketOperator PacketOperator::from_json(const json::Value &agent_facing) {
  const auto &block = agent_facing.get("operator");
  PacketOperator op;
  for (const auto &[key, field] : kOperatorStrings) op.*field = string_of(block.get(key));
  op.fixed_axes = block.get("fixed_axes");
  return op;
}

AttemptAccount AttemptAccount::from_json(const json::Value &agent_facing) {
  AttemptAccount a;
  a.the_failed_lever = string_of(agent_facing.get("the_failed_lever"));
  a.correctness_status = string_of(agent_facing.get("measurements").get("correctness").get("status"));
  if (const auto *list = agent_facing.get("pitfalls_recorded_here").as_array())
    for (const auto &p : *list) a.pitfalls.push_back(string_of(p.get("pitfall")));
  return a;
}

PacketKernel PacketKernel::from_json(const json::Value &agent_facing) {
  PacketKernel k;
  if (const auto *s = agent_facing.get("kernel_file").as_string())
    k.kernel_file = *s;
  else if (const auto *after = agent_facing.get("code_after_file").as_string())
    k.kernel_file = *after; // a diff's kernel, named by its extension (".after.cu")
  if (const auto *list = agent_facing.get("kept_changes_of_its_lineage").as_array())
    for (const auto &c : *list) k.lineage_changes.push_back(string_of(c.get("change")));
  return k;
}

} // namespace otm::workspace
