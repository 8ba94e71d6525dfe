// `match`: the same-scope candidates for an incoming record (spec
// wiki-gate.md §3). Deterministic filtering only; whether a candidate is the
// same knowledge is the caller's decision.
#pragma once

#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "config/limits.hpp"
#include "store/candidate_summary.hpp"
#include "store/index_keys.hpp"
#include "json/value.hpp"

namespace otm::admission {

// The summary of a record shown to the caller (incoming and candidates):
// the one statement, store/candidate_summary.hpp.
using store::gain_direction;
inline json::Value record_summary(const json::Value &record) { return store::candidate_summary(record); }

// True when the scope filter keeps a live entry for the incoming scope:
// vendor, arch, operator_family equal when the incoming one is set; dsl by
// the two-way `any` rule.
bool scope_matches(const json::Value &incoming_scope, const json::Value &entry_scope);

// Views into the MatchResult it belongs to (no field of a candidate is
// copied: a scope can hold tens of thousands).
struct Candidate {
  std::string_view id;
  std::string_view relpath; // relative to the live root
  // Its record's summary as `match` prints it (json::to_line).
  std::string_view summary;
};

struct MatchResult {
  std::vector<Candidate> candidates;            // index order (by id)
  std::vector<std::string> episode_key_matches; // candidate ids
  // What the candidates are views into: the keys index and its scope rows,
  // and what was made here (ids, paths and summaries of records read, or
  // found by a walk; never moved: a deque).
  std::shared_ptr<const store::KeysIndex> keys;
  store::ScopeRows rows;
  std::deque<std::string> made;
};

// Candidates from the live store at `live_root`: the index entries in scope,
// found by the keys index (store/index_keys.hpp) with the summaries it
// keeps, so no record file is read (docs/differences.md: an entry is taken
// as the index has it, without looking for its file); a candidate whose
// summary the keys lack (its record unreadable when they were built, or a
// journal line of an older otm) is read from its record, and dropped when
// that is missing, unreadable or outside the store. With no index, the
// records a walk of records/ finds. The caller holds the store lock.
MatchResult find_candidates(const json::Value &incoming, const std::filesystem::path &live_root,
                            const config::Limits &limits = {});

// The JSON line printed by `match` for a valid record, and its newline,
// handed to `sink` in pieces of about a megabyte: the report of a wide
// scope (tens of megabytes) is never held whole.
void write_match_report(const json::Value &incoming, const MatchResult &m,
                        const std::function<void(std::string_view)> &sink);
// The same line as one string (no newline).
std::string match_report(const json::Value &incoming, const MatchResult &m);
// The JSON line printed by `match` for an invalid record (every error).
json::Value match_error_report(const std::vector<std::string> &errors);

} // namespace otm::admission
