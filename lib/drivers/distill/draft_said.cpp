// The drafters' reading of the typed agent_facing blocks (Context::said):
// the rules strings_at keeps for a JSON list, for the typed ones.
#include "distill/draft_context.hpp"

namespace otm::distill::drafting {

std::vector<std::string> nonblank_strings(const std::vector<std::string> &list) {
  std::vector<std::string> out;
  for (const auto &s : list)
    if (auto t = text_of(s)) out.push_back(std::move(*t));
  return out;
}

std::vector<std::string> nonblank_rationales(const std::vector<workspace::WhatTheRunSaid::Direction> &list) {
  std::vector<std::string> out;
  for (const auto &d : list)
    if (auto t = text_of(d.rationale)) out.push_back(std::move(*t));
  return out;
}

} // namespace otm::distill::drafting
