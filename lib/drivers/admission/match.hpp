// `match`: the same-scope candidates for an incoming record (spec
// wiki-gate.md §3). Deterministic filtering only; whether a candidate is the
// same knowledge is the caller's decision.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "config/limits.hpp"
#include "json/value.hpp"

namespace otm::admission {

// The summary of a record shown to the caller (incoming and candidates).
json::Value record_summary(const json::Value &record);

// "positive", "negative" or "unknown" (the summary's gain_direction).
std::string gain_direction(const json::Value &record);

// True when the scope filter keeps a live entry for the incoming scope:
// vendor, arch, operator_family equal when the incoming one is set; dsl by
// the two-way `any` rule.
bool scope_matches(const json::Value &incoming_scope, const json::Value &entry_scope);

struct Candidate {
  std::string id;
  std::string relpath; // relative to the live root
  json::Value record;
};

struct MatchResult {
  std::vector<Candidate> candidates;            // index order (by id)
  std::vector<std::string> episode_key_matches; // candidate ids
};

// Candidates from the live store at `live_root`: the index entries in scope,
// found by the keys index (store/index_keys.hpp), or a walk of records/ when
// there is no index; entries whose file is missing, unreadable or outside the
// store are dropped. The caller holds the store lock.
MatchResult find_candidates(const json::Value &incoming, const std::filesystem::path &live_root,
                            const config::Limits &limits = {});

// The JSON line printed by `match` for a valid record.
json::Value match_report(const json::Value &incoming, const MatchResult &m);
// The JSON line printed by `match` for an invalid record (every error).
json::Value match_error_report(const std::vector<std::string> &errors);

} // namespace otm::admission
