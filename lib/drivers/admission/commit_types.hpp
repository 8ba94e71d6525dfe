// Shared types of the admission gate's commit actions (insert, confirm,
// conflict, auto): what the caller supplies and what an action reports.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/limits.hpp"
#include "record/format_tags.hpp"
#include "json/value.hpp"

namespace otm::admission {

// The moment of a commit, supplied by the caller so tests are reproducible.
struct Timestamp {
  std::string iso;   // 2026-11-29T23:01:02Z (conflict `created`, merged marker)
  std::string stamp; // 20261129_230102 (conflict file names)
  static Timestamp now();
};

class BatchLog;

struct CommitRequest {
  std::filesystem::path live_root;   // the directory holding records/
  json::Value record;                // the validated incoming record
  std::optional<std::string> target; // existing id for confirm / conflict
  Timestamp when;
  std::string builder_version = record::kBuilderVersion; // written when confirm re-ranks
  config::Limits limits{};                               // limits.max_journal_entries and the readers'
  // Set inside a batch (batch_log.hpp): the record's commit is not flushed
  // on its own (the batch flushes once), and a file it replaces is kept in
  // the batch's log first.
  BatchLog *batch = nullptr;
};

struct Outcome {
  int exit_code = 0;        // 0 done, 1 refused
  std::string message;      // for stdout, one or more lines
  bool mark_merged = false; // the source record has been admitted in some form
  std::string action;       // insert / confirm / conflict
  std::string target;       // the existing id (confirm, conflict)
  std::string written;      // path relative to the live root of what was written
  // Every file of the store the action changed, relative to the live root
  // (the record, records/index.journal, records/index.json when the
  // commit compacted the journal, a conflict file); empty when it
  // changed nothing. A git-backed store commits exactly these.
  std::vector<std::string> changed;
};

} // namespace otm::admission
