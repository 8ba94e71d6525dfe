// The admission gate's two commands as library calls (the executable only
// parses options): `match` and `commit insert|confirm|conflict|auto`.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "admission/commit_types.hpp"
#include "admission/git_store.hpp"
#include "admission/record_validation.hpp"
#include "config/limits.hpp"
#include "record/format_tags.hpp"

namespace otm::admission {

struct GateReport {
  int exit_code = 0;
  std::string out; // for stdout
  std::string err; // for stderr
  // When set, stdout goes on after `out` with what this writes: a report
  // streamed from what the command kept (match: a wide scope's line is tens
  // of megabytes, copied once, into the stream).
  std::function<void(std::ostream &)> out_stream;
  // `out` and the streamed rest, as one string.
  std::string out_text() const;
};

// Validates the record read from `source` (a file or "-") and reports the
// same-scope candidates: found under a shared lock, written (out_stream)
// after it is released. Throws io::IoError / json::ParseError when the
// input cannot be read (exit 2).
GateReport run_match(const std::string &source, const std::filesystem::path &live_root, const RecordCheck &checks,
                     const config::Limits &limits = {});

struct CommitCommand {
  std::string action; // insert, confirm, conflict, auto
  std::string source; // record file or "-"
  std::filesystem::path live_root;
  std::optional<std::string> target;
  Timestamp when;
  RecordCheck checks;
  std::string builder_version = record::kBuilderVersion;
  LiveGitOptions git{}; // used when the live store is a git work tree (git_store.hpp)
  config::Limits limits{};
};

// Validates, takes the exclusive store lock, removes generations a killed
// writer left, runs the action (in a git-backed store: commits it, and
// pushes it with a remote, re-applying it when the push is rejected), folds
// the index journal into records/index.json (so the index is current when
// the lock is released: docs/admission.md), and marks the source merged
// when the action admitted it. Throws a Usage
// Error for a bad action or a missing --target.
GateReport run_commit(const CommitCommand &cmd);

// A batch (`commit insert|auto RECORD...`): every record of `sources` —
// record files, staging stores (the directory holding records/: each of its
// records), or "-" (stdin: one JSON record, or a JSONL stream of them) —
// decided and written under one lock, in order (a later record sees the
// earlier ones), with one rewrite of records/index.json at the end and, in
// a git-backed store, one git commit and one push for the whole batch
// (re-applied whole when the push is rejected). A record that cannot be
// read, fails validation or is refused is reported (stderr, and a
// "refused: SOURCE" line on stdout) and does not stop the others; each
// record is still all or nothing in the store. `cmd.source` is not used.
// Exit 0 when every record was admitted, 1 when one was refused. Throws a
// Usage Error for another action, a --target, or a source that does not
// exist.
GateReport run_batch(const CommitCommand &cmd, const std::vector<std::string> &sources);

// `compact`: under the exclusive lock (after resolving a killed writer's
// commit), folds the index journal into records/index.json and removes it
// (index_journal_writer.hpp); in a git-backed store that is one commit
// "otm: compact", pushed like an admission. `cmd.action`, `source` and
// `target` are not used.
GateReport run_compact(const CommitCommand &cmd);

} // namespace otm::admission
